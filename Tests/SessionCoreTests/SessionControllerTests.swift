import HeartRate
import SessionCore
import SyntheticReceivers
import Testing
import TrackCore

/// Feeds fixes, keeping what a log would keep to rebuild the session.
private struct Recorder {
    var controller: SessionController
    var journal: [SessionController.JournalEntry] = []
    var rows: [SessionRow] = []
    var announcements: [Announcement] = []

    init(_ configuration: SessionController.Configuration = .init()) {
        controller = SessionController(configuration: configuration, ids: SessionIDGenerator(seed: 1))
    }

    mutating func feed(_ fixes: [Fix]) {
        for fix in fixes {
            var output = SessionOutput()
            controller.ingest(fix, into: &output)
            keep(output)
        }
    }

    @discardableResult
    mutating func command(_ command: SessionCommand, id: String, at mono: Double) -> CommandReply {
        var output = SessionOutput()
        let reply = controller.handle(command, id: id, receivedAt: mono, systemTime: 42, into: &output)
        keep(output)
        return reply
    }

    mutating func tick(_ mono: Double) -> [SessionRow] {
        var output = SessionOutput()
        controller.tick(receivedAt: mono, into: &output)
        keep(output)
        return output.rows
    }

    mutating func keep(_ output: SessionOutput) {
        rows += output.rows
        announcements += output.announcements
        for row in output.rows {
            switch row {
            case .fix(_, _, let fix, _): journal.append(.fix(fix))
            case .command(_, _, let reply, _): journal.append(.command(reply.command, id: reply.commandID))
            default: break
            }
        }
    }

    var events: [SessionEvent] { announcements.map(\.event) }
    var sessionID: String? { controller.session?.id }
}

@Suite("Session controller")
struct SessionControllerTests {
    @Test func aManualPauseCreditsNoDistanceAndCountsAsPaused() {
        var recorder = Recorder()
        recorder.command(.start, id: "s", at: 999)
        recorder.feed(StraightLine.fixes(from: StraightLine.t0, seconds: 61))
        recorder.command(.pause, id: "p", at: 1060.5)
        // The wearer walks on at 3 m/s while paused (into a shop, say): none of it counts.
        recorder.feed(StraightLine.fixes(from: StraightLine.t0 + 61, seconds: 60))
        recorder.command(.resume, id: "r", at: 1120.5)
        recorder.feed(StraightLine.fixes(from: StraightLine.t0 + 121, seconds: 60))
        let track = recorder.controller.session!.track
        #expect(abs(track.distance - 2 * 180) < 6, "distance \(track.distance)")
        #expect(abs(track.elapsed - 180) < 0.001)
        #expect(abs(track.pausedTime - 61) < 0.001)
        #expect(abs(track.movingTime - 119) < 0.001)
        #expect(recorder.events.contains(.paused) && recorder.events.contains(.resumed))
    }

    /// Rows and their order are the on-disk format: a start logs begin, its command, the start
    /// event and the state; a pause its command, the event and the state.
    @Test func commandsLogTheirRowsInTheirOrder() {
        var recorder = Recorder()
        recorder.command(.start, id: "s", at: 999)
        recorder.command(.pause, id: "p", at: 1000)
        let shapes = recorder.rows.map { row -> String in
            switch row {
            case .begin: "begin"
            case .command(_, let seq, let reply, _): "command \(reply.commandID) \(seq)"
            case .event(let seq, let announcement): "event \(announcement.event) \(seq)"
            case .state(_, let state): "state \(state.name)"
            default: "other"
            }
        }
        let anchor = TimeAnchor(source: .system, seconds: 42)
        #expect(
            shapes == [
                "begin", "command s 2", "event \(SessionEvent.started(anchor)) 1", "state active", "command p 4",
                "event paused 3", "state paused",
            ]
        )
    }

    @Test func endFinishesWithTheSummaryAndReturnsToIdle() {
        var recorder = Recorder()
        recorder.command(.start, id: "s", at: 999)
        let id = recorder.sessionID
        recorder.feed(StraightLine.fixes(from: StraightLine.t0, seconds: 30))
        let reply = recorder.command(.end, id: "e", at: 1030)
        #expect(reply.accepted && reply.state == .idle && reply.sessionID == id)
        guard
            case .finish(let finished, let summary, .command, let endedAt)? = recorder.rows.last(where: {
                if case .finish = $0 { true } else { false }
            })
        else {
            Issue.record("no finish")
            return
        }
        #expect(finished == id)
        #expect(abs(summary.distance - 87) < 3)
        #expect(endedAt == TimeAnchor(source: .gps, seconds: StraightLine.t0 + 29))
        #expect(recorder.controller.session == nil)
        // Fixes after the end belong to no session and are not logged.
        let before = recorder.rows.count
        recorder.feed(StraightLine.fixes(from: StraightLine.t0 + 30, seconds: 5))
        #expect(recorder.rows.count == before)
    }

    @Test func aSessionWithoutSamplesForTooLongIsAbandoned() {
        var recorder = Recorder(.init(abandonAfter: 600))
        recorder.command(.start, id: "s", at: 999)
        recorder.feed(StraightLine.fixes(from: StraightLine.t0, seconds: 10))
        #expect(!recorder.tick(1500).contains { if case .finish = $0 { true } else { false } })
        let rows = recorder.tick(StraightLine.received(StraightLine.t0 + 9) + 601)
        #expect(
            rows.contains {
                if case .finish(_, _, .abandoned, TimeAnchor(source: .gps, seconds: StraightLine.t0 + 9)?) = $0 {
                    true
                } else {
                    false
                }
            }
        )
        #expect(recorder.controller.lifecycle.state == .idle && recorder.controller.session == nil)
    }

    @Test func aRecoveredSessionIsAbandonedWhenTheFirstFixShowsItWasLeftTooLongAgo() throws {
        var recorder = Recorder(.init(autostart: true, abandonAfter: 3600))
        recorder.feed(StraightLine.fixes(from: StraightLine.t0, seconds: 20))
        let old = try #require(recorder.sessionID)
        var rebuilt = SessionController(
            recovering: RecoveredSession(
                id: old,
                activity: .running,
                startedAt: TimeAnchor(source: .gps, seconds: StraightLine.t0),
                journal: recorder.journal,
                nextSeq: 100
            ),
            configuration: .init(autostart: true, abandonAfter: 3600),
            ids: SessionIDGenerator(seed: 2),
            restartedAt: 3
        )
        // Booted the next morning: the first fix ends the old session and (autostart) begins a new one.
        var output = SessionOutput()
        rebuilt.ingest(StraightLine.fixes(from: StraightLine.t0 + 86_400, seconds: 1)[0], into: &output)
        #expect(
            output.rows.contains {
                if case .finish(old, _, .abandoned, TimeAnchor(source: .gps, seconds: StraightLine.t0 + 19)?) = $0 {
                    true
                } else {
                    false
                }
            }
        )
        let next = try #require(rebuilt.session?.id)
        #expect(next != old)
        #expect(
            output.rows.contains {
                if case .begin(
                    next,
                    .running,
                    TimeAnchor(source: .gps, seconds: StraightLine.t0 + 86_400),
                    .gps,
                    _,
                    _
                ) =
                    $0
                {
                    true
                } else {
                    false
                }
            }
        )
    }

    @Test func autostartBeginsAtTheFirstGoodFixOnly() {
        var recorder = Recorder(.init(autostart: true))
        recorder.feed([Fix(mode: 1, time: GPSTime(seconds: StraightLine.t0 - 5), position: nil)])
        recorder.feed([
            Fix(mode: 3, time: GPSTime(seconds: StraightLine.t0 - 4), position: GeoPoint(latitude: 0, longitude: 0))
        ])
        #expect(recorder.controller.session == nil)
        recorder.feed(StraightLine.fixes(from: StraightLine.t0, seconds: 5))
        guard
            case .begin(_, .running, TimeAnchor(source: .gps, seconds: StraightLine.t0), .gps, _, _)? = recorder.rows
                .first
        else {
            Issue.record("\(recorder.rows.first.map { "\($0)" } ?? "nothing")")
            return
        }
        #expect(recorder.controller.lifecycle.state == .active)
    }

    @Test func sessionIdsAreVersion4UUIDsAndDifferent() {
        var ids = SessionIDGenerator(seed: 42)
        let all = (0..<1000).map { _ in ids.next() }
        #expect(Set(all).count == 1000)
        for id in all {
            let parts = id.split(separator: "-").map(\.count)
            #expect(parts == [8, 4, 4, 4, 12] && id[id.index(id.startIndex, offsetBy: 14)] == "4", "\(id)")
            #expect(id == id.lowercased())
        }
    }
}

@Suite("Session controller: heart rate")
struct SessionControllerHeartRateTests {
    private let zones = HeartRateZones(maxHeartRate: 200)

    private func beat(_ bpm: Int, at t: Double, contact: SensorContact = .detected) -> HeartRateSample {
        HeartRateSample(
            bpm: bpm,
            contact: contact,
            rrIntervals: [UInt16(61_440 / bpm)],
            receivedAt: t,
            payload: [0x16, UInt8(bpm)]
        )
    }

    private func controller() -> SessionController {
        SessionController(configuration: .init(heartRateZones: zones), ids: SessionIDGenerator(seed: 3))
    }

    @Test func beatsAreLoggedOnlyInASessionAndFeedItsFigures() {
        var controller = controller()
        var output = SessionOutput()
        controller.heartRate(beat(120, at: 10), into: &output)
        #expect(output.rows.isEmpty, "no session: nothing to log it in")
        _ = controller.handle(.start, id: "a", receivedAt: 11, systemTime: 0, into: &output)
        output.removeAll()
        for i in 0..<10 { controller.heartRate(beat(150 + i, at: 12 + Double(i)), into: &output) }
        let rows = output.rows.compactMap {
            if case .heartRate(let id, let seq, let sample, _) = $0 { (id, seq, sample) } else { nil }
        }
        #expect(rows.count == 10 && rows.allSatisfy { $0.0 == controller.session?.id })
        #expect(rows.map(\.1) == Array(rows[0].1..<(rows[0].1 + 10)), "rows take the session's sequence")
        #expect(rows[3].2.payload == [0x16, 153])
        let stats = controller.session!.track.heartRate!
        #expect(stats.sampleCount == 10 && stats.maximum == 159 && stats.average == 154.5)
    }

    @Test func beatsWithoutSkinContactAreLoggedButNotCounted() {
        var controller = controller()
        var output = SessionOutput()
        _ = controller.handle(.start, id: "a", receivedAt: 1, systemTime: 0, into: &output)
        output.removeAll()
        controller.heartRate(beat(140, at: 2), into: &output)
        controller.heartRate(beat(30, at: 3, contact: .notDetected), into: &output)
        #expect(output.rows.count == 2)
        #expect(controller.session!.track.heartRate!.sampleCount == 1)
    }

    @Test func theJournalRebuildsHeartRateFiguresToo() throws {
        var controller = controller()
        var output = SessionOutput()
        _ = controller.handle(.start, id: "a", receivedAt: 1, systemTime: 0, into: &output)
        var journal: [SessionController.JournalEntry] = [.command(.start, id: "a")]
        for i in 0..<30 {
            let sample = beat(100 + i * 3, at: 2 + Double(i))
            controller.heartRate(sample, into: &output)
            journal.append(.heartRate(sample))
        }
        let rebuilt = SessionController(
            recovering: RecoveredSession(
                id: try #require(controller.session?.id),
                activity: .running,
                startedAt: TimeAnchor(source: .system, seconds: 0),
                journal: journal,
                nextSeq: 40
            ),
            configuration: .init(heartRateZones: zones),
            ids: SessionIDGenerator(seed: 4),
            restartedAt: 100
        )
        let before = controller.session!.track.heartRate!
        let after = rebuilt.session!.track.heartRate!
        #expect(after.sampleCount == 30 && after.average == before.average && after.timeInZone == before.timeInZone)
    }
}
