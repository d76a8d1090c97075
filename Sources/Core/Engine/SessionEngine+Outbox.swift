import Course
import PhoneLinkMessages
import SessionCore
import TrackCore

extension SessionEngine {
    /// The outbox rows for what the session logic just produced: lifecycle rows, then events.
    /// Runs for every fix with a phone configured: the session's figures are read only for the rare
    /// event that reports them.
    func outboxMessages(createdAt: Double, endedCourse: LinkSnapshot.Course? = nil) -> [LogRow] {
        let figures = { [controller] in
            controller.session.map { ($0.track.distance, $0.track.elapsed) } ?? (0, 0)
        }
        var rows: [LogRow] = []
        for row in output.rows {
            if let message = LinkMessage(reporting: row, course: endedCourse) {
                rows.append(.outbox(message, createdAt: createdAt))
            }
        }
        for announcement in output.announcements {
            if let message = LinkMessage(reporting: announcement, figures: figures) {
                rows.append(.outbox(message, createdAt: createdAt))
            }
        }
        return rows
    }

    /// The live figures for the phone, once a tick when they changed (elapsed time alone changes
    /// them every second while a session runs).
    mutating func snapshot(_ now: Instant) {
        let status = status(now)
        let zones = configuration.session.heartRateZones
        let bpm = status.heartRate?.link == .streaming ? status.heartRate?.bpm : nil
        var gps = LinkSnapshot.GPSQuality.none
        if status.gps.gpsdConnected, let mode = status.gps.mode, mode >= 2 {
            gps = status.gps.lost ? .lost : ((status.gps.horizontalError ?? 0) > 20 ? .poor : .good)
        } else if status.gps.lost, status.gps.gpsdConnected {
            gps = .lost
        }
        let figures = status.figures
        let snapshot = LinkSnapshot(
            sessionID: figures?.sessionID,
            state: status.state,
            distance: figures?.distance ?? 0,
            elapsed: (figures?.elapsed ?? 0).rounded(.down),
            moving: (figures?.moving ?? 0).rounded(.down),
            pace: figures?.currentPace?.rounded(),
            averagePace: figures?.averagePace?.rounded(),
            heartRate: bpm,
            zone: bpm.flatMap { bpm in zones.map { $0.zone(for: Double(bpm)) } },
            gps: gps,
            strapLost: status.heartRate?.link == .lost,
            gpsTime: status.figures == nil ? nil : lastFix?.time?.seconds,
            zoneFloors: zones.map { zones in
                zones.lowerBounds.map { Int(($0 * zones.maxHeartRate).rounded(.up)) }
            } ?? [],
            energy: figures?.energy.map { $0.kilocalories.rounded() },
            climbed: figures?.elevation.map { $0.gain.rounded() },
            steps: figures?.steps,
            course: figures?.course.map(Self.linkCourse)
        )
        guard snapshot != lastSnapshot else { return }
        lastSnapshot = snapshot
        queue.append([LogRow.outbox(.snapshot(snapshot), createdAt: now.system)])
    }

    /// The link's shell reported: a change of state is a session event (logged in a session).
    mutating func phoneLinkReport(_ report: PhoneLinkReport, _ now: Instant) {
        let previous = phoneReport?.state
        phoneReport = report
        guard previous != report.state, previous != nil || report.state != .lost else { return }
        controller.event(.phoneLink(report.state), receivedAt: now.monotonic, into: &output)
    }

    /// A phone's command also gets its answer through the outbox (durable, so a reply to a
    /// command that arrived just before a power loss still reaches the phone).
    mutating func replyToPhone(_ reply: CommandReply, _ request: CommandRequest, _ now: Instant) {
        guard request.isFromPhone else { return }
        phoneReplies.append(.outbox(.commandReply(reply), createdAt: now.system))
    }
}

extension SessionEngine {
    /// A follower's progress as the live figures carry it.
    static func linkCourse(_ progress: CourseProgress) -> LinkSnapshot.Course {
        LinkSnapshot.Course(
            toGo: progress.toGo.rounded(),
            away: progress.away?.rounded(),
            state: linkState(progress.state),
            secondsToGo: progress.secondsToGo?.rounded()
        )
    }

    /// A follower's state as the live figures carry it.
    static func linkState(_ state: CourseFollower.State) -> LinkSnapshot.Course.State {
        switch state {
        case .notStarted: .notStarted
        case .onCourse: .onCourse
        case .leaving: .leaving
        case .offCourse: .offCourse
        case .rejoining: .rejoining
        case .finished: .finished
        }
    }
}
