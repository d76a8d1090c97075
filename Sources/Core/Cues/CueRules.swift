import HeartRate
import RaceCore
import SessionCore
import TrackCore

/// Which cues a session earns: typed session news and the time in, cues out. No clock and no
/// I/O: the daemon's cue sink and `wearbridge cues` run this same code on live and recorded news.
///
/// Splits speak the split object the data log stores; a closing cue speaks the summary the session
/// ended with. Flapping conditions (auto-pause under trees, a strap or phone at the edge of range)
/// are spoken only once they hold for `dwell`.
public struct CueRules: Sendable {
    public let settings: CueSettings
    private var sessionID: String?
    private var reading: LiveReading?
    private var autoPause = Debounce()
    private var strapLost = Debounce()
    private var contactLost = Debounce()
    private var linkLost = Debounce()
    private var gpsLostSince: Double?
    private var gpsRemindedAt = 0.0
    private var batterySaid = false
    private var zoneWatch: ZoneWatch?
    private var nextSummaryAt: Double?
    private var nextSummaryDistance: Double?
    private var manuallyPaused = false
    private var partnerLost = Debounce()
    /// The race partner's name, once a race is armed or followed.
    private var partnerName = ""

    public init(settings: CueSettings) {
        self.settings = settings
        startSession(nil)
    }

    /// One piece of news at monotonic `now`; the cues it makes due, in order.
    public mutating func take(_ news: SessionNews, now: Double) -> [Cue] {
        var cues: [Cue] = []
        switch news {
        case .announcement(let announcement):
            event(announcement, now: now, into: &cues)
        case .reading(let reading):
            read(reading, now: now, into: &cues)
        }
        due(now: now, into: &cues)
        return cues.filter { settings.groups.contains($0.kind.group) }
    }

    // MARK: Events

    private mutating func event(_ announcement: Announcement, now: Double, into cues: inout [Cue]) {
        let cause = announcement.receivedAt ?? now
        func cue(_ message: CueMessage) {
            cues.append(Cue(message, causedAt: cause, dueAt: now, freshness: settings.freshness(of: message.kind)))
        }
        switch announcement.event {
        case .started:
            startSession(announcement.sessionID)
            cue(.sessionStarted)
        case .ended:
            cue(endMessage(announcement.sessionID))
            startSession(nil)
        case .paused:
            manuallyPaused = true
            cue(.paused)
        case .resumed:
            manuallyPaused = false
            cue(.resumed)
        case .track(.autoPaused):
            autoPause.set(true, at: now, causedAt: cause)
        case .track(.autoResumed):
            autoPause.set(false, at: now, causedAt: cause)
        case .track(.split(let split)):
            cue(
                .split(
                    index: split.index,
                    duration: split.duration,
                    pace: split.pace,
                    heartRate: split.averageHeartRate
                )
            )
        case .track(.gpsLost):
            gpsLostSince = now
            gpsRemindedAt = now
            cue(.gpsLost(again: false))
        case .track(.gpsRegained):
            guard gpsLostSince != nil else { return }
            gpsLostSince = nil
            cue(.gpsRegained)
        case .strap where sessionID == nil, .phoneLink where sessionID == nil:
            // Putting the gear on before a start is not news.
            return
        case .strap(.lost):
            strapLost.set(true, at: now, causedAt: cause)
        case .strap(.regained), .strap(.found):
            strapLost.set(false, at: now, causedAt: cause)
        case .strap(.contactLost):
            contactLost.set(true, at: now, causedAt: cause)
        case .strap(.contactRegained):
            contactLost.set(false, at: now, causedAt: cause)
        case .strap(.battery(let level)):
            guard level <= settings.batteryLowAt, !batterySaid, sessionID != nil else { return }
            batterySaid = true
            cue(.batteryLow(percent: level))
        case .phoneLink(.lost):
            linkLost.set(true, at: now, causedAt: cause)
        case .phoneLink(.live):
            linkLost.set(false, at: now, causedAt: cause)
        case .recovered:
            sessionID = announcement.sessionID
        case .race(let race):
            for message in self.race(race, now: now, cause: cause) { cue(message) }
        case .course(let event):
            cue(.course(event))
        default:
            break
        }
    }

    /// The closing cue, from the summary the session ended with when it came (it comes first).
    private func endMessage(_ id: String?) -> CueMessage {
        guard let reading, reading.sessionID == id else {
            return .sessionEnded(distance: 0, moving: 0, averagePace: nil, averageHeartRate: nil)
        }
        return .sessionEnded(
            distance: reading.distance,
            moving: reading.moving,
            averagePace: reading.averagePace,
            averageHeartRate: reading.averageHeartRate,
            climbed: reading.climbed,
            energy: reading.energy,
            steps: reading.steps
        )
    }

    private mutating func startSession(_ id: String?) {
        sessionID = id
        reading = nil
        autoPause = Debounce()
        gpsLostSince = nil
        batterySaid = false
        manuallyPaused = false
        zoneWatch = settings.zones.map { ZoneWatch(settings: settings, zones: $0) }
        nextSummaryAt = settings.summaryEvery
        nextSummaryDistance = settings.summaryEveryDistance
    }

    // MARK: Readings

    private mutating func read(_ reading: LiveReading, now: Double, into cues: inout [Cue]) {
        if sessionID == nil, !reading.isFinal { sessionID = reading.sessionID }
        self.reading = reading
        guard !reading.isFinal else { return }
        let paused: Bool
        switch reading.state {
        case .paused: paused = true
        default: paused = manuallyPaused
        }
        if paused, settings.quietWhilePaused { return }
        if let bpm = reading.heartRate, var watch = zoneWatch {
            if let zone = watch.update(bpm: bpm, at: reading.at) {
                cues.append(
                    Cue(.zone(zone), causedAt: reading.at, dueAt: now, freshness: settings.freshness(of: .zone))
                )
            }
            zoneWatch = watch
        }
        if summaryDue(reading) {
            let figures = summaryFigures(reading)
            if !figures.isEmpty {
                cues.append(
                    Cue(
                        .summary(figures),
                        causedAt: reading.at,
                        dueAt: now,
                        freshness: settings.freshness(of: .summary)
                    )
                )
            }
        }
    }

    /// A time or distance trigger passed (both at once make one summary).
    private mutating func summaryDue(_ reading: LiveReading) -> Bool {
        var due = false
        if let every = settings.summaryEvery, let next = nextSummaryAt, reading.moving >= next {
            nextSummaryAt = ((reading.moving / every).rounded(.down) + 1) * every
            due = true
        }
        if let every = settings.summaryEveryDistance, let next = nextSummaryDistance, reading.distance >= next {
            nextSummaryDistance = ((reading.distance / every).rounded(.down) + 1) * every
            due = true
        }
        return due
    }

    private func summaryFigures(_ reading: LiveReading) -> [SummaryFigure] {
        let chosen = settings.summaryFigures
        var figures: [SummaryFigure] = []
        for figure in chosen {
            switch figure {
            case .distance:
                figures.append(
                    chosen.contains(.elapsed)
                        ? .distanceIn(distance: reading.distance, elapsed: reading.moving) : .distance(reading.distance)
                )
            case .elapsed:
                if !chosen.contains(.distance) { figures.append(.elapsed(reading.moving)) }
            case .averagePace:
                if let pace = reading.averagePace { figures.append(.averagePace(pace)) }
            case .currentPace:
                if let pace = reading.currentPace { figures.append(.currentPace(pace)) }
            case .heartRate:
                if let bpm = reading.heartRate { figures.append(.heartRate(bpm)) }
            case .averageHeartRate:
                if let bpm = reading.averageHeartRate { figures.append(.averageHeartRate(bpm)) }
            case .cadence:
                if let steps = reading.cadence { figures.append(.cadence(steps)) }
            }
        }
        if let partner = reading.racePartner, let gap = reading.raceGap {
            figures.append(.gap(partner: partner, metres: gap, seconds: reading.raceGapSeconds))
        }
        return figures
    }

    // MARK: Conditions that wait for their dwell

    private mutating func due(now: Double, into cues: inout [Cue]) {
        let dwell = settings.dwell
        func cue(_ message: CueMessage, _ due: (state: Bool, causedAt: Double, dueAt: Double)) {
            cues.append(
                Cue(message, causedAt: due.causedAt, dueAt: due.dueAt, freshness: settings.freshness(of: message.kind))
            )
        }
        if let due = autoPause.due(at: now, dwell: dwell) { cue(due.state ? .autoPaused : .autoResumed, due) }
        if let due = strapLost.due(at: now, dwell: dwell) { cue(due.state ? .strapLost : .strapRegained, due) }
        if let due = contactLost.due(at: now, dwell: dwell), due.state { cue(.contactLost, due) }
        if let due = linkLost.due(at: now, dwell: dwell) { cue(due.state ? .linkLost : .linkBack, due) }
        if let due = partnerLost.due(at: now, dwell: dwell) {
            cue(.partner(due.state ? .lost(partnerName) : .back(partnerName)), due)
        }
        if let since = gpsLostSince, now - gpsRemindedAt >= settings.gpsReminder {
            gpsRemindedAt = now
            cues.append(
                Cue(.gpsLost(again: true), causedAt: since, dueAt: now, freshness: settings.freshness(of: .gpsLost))
            )
        }
    }
}

extension CueRules {
    /// A race's news: the countdown, lead changes and the partner's doings; the partner's silence
    /// waits for the dwell like the own link's.
    fileprivate mutating func race(
        _ event: RaceEvent,
        now: Double,
        cause: Double
    ) -> [CueMessage] {
        switch event {
        case .armed(_, let partner, _, _), .followed(_, let partner):
            partnerName = partner
            partnerLost = Debounce()
            return []
        case .disarmed:
            return [.raceCancelled]
        case .countdown(.startingIn(let seconds)):
            return [.countdown(seconds)]
        case .countdown(.go):
            return [.countdown(0)]
        case .started, .partner:
            return []
        case .news(.leadTaken(let gap)):
            return [.raceLead(partner: partnerName, gap: abs(gap))]
        case .news(.leadLost(let gap)):
            return [.raceLead(partner: partnerName, gap: -abs(gap))]
        case .news(.partnerPaused):
            return [.partner(.paused(partnerName))]
        case .news(.partnerResumed):
            return [.partner(.resumed(partnerName))]
        case .news(.partnerSplit(let number, let seconds)):
            return [.partner(.split(partnerName, index: number, seconds: seconds))]
        case .news(.partnerFinished(let elapsed, _)):
            return [.partner(.finished(partnerName, elapsed: elapsed))]
        case .news(.partnerAbandoned):
            return [.partner(.abandoned(partnerName))]
        case .news(.partnerLost):
            partnerLost.set(true, at: now, causedAt: cause)
            return []
        case .news(.partnerBack):
            partnerLost.set(false, at: now, causedAt: cause)
            return []
        }
    }
}
