import Testing
import TrackCore

/// A straight line at `speed`, one fix a second from `start` on, received on a monotonic clock
/// that runs 1000 s ahead of GPS time (as after a boot with a wrong wall clock).
private func line(from start: Double, seconds: Int, speed: Double = 3, startEast: Double = 0) -> [Fix] {
    let frame = LocalFrame(origin: GeoPoint(latitude: 48.137, longitude: 11.575))
    return (0..<seconds).map { i in
        let t = start + Double(i)
        let east = startEast + speed * (t - 1_750_000_000)
        return Fix(
            mode: 3,
            time: GPSTime(seconds: t),
            position: frame.unproject(LocalPoint(east: east, north: 0)),
            errorEast: 3,
            errorNorth: 3,
            horizontalError: 4,
            speed: speed,
            track: 90,
            speedError: 0.3,
            receivedAt: t - 1_750_000_000 + 1000.05
        )
    }
}

private let t0 = 1_750_000_000.0

/// Feeds fixes, keeping what a log would keep to rebuild the session.
private struct Recorder {
    var controller: SessionController
    var journal: [SessionController.JournalEntry] = []
    var actions: [SessionAction] = []
    var ids = 0

    init(_ configuration: SessionController.Configuration = .init()) {
        controller = SessionController(configuration: configuration, nextSessionID: "s0")
    }

    mutating func feed(_ fixes: [Fix]) {
        for fix in fixes {
            let produced = controller.ingest(fix)
            keep(produced)
        }
    }

    @discardableResult
    mutating func command(_ command: SessionCommand, id: String, at mono: Double) -> CommandReply {
        let (reply, produced) = controller.handle(command, id: id, receivedAt: mono, systemTime: 42)
        keep(produced)
        return reply
    }

    mutating func keep(_ produced: [SessionAction]) {
        actions += produced
        for action in produced {
            switch action {
            case .recordFix(_, _, let fix, _): journal.append(.fix(fix))
            case .recordCommand(_, _, let reply, _): journal.append(.command(reply.command, id: reply.commandID))
            case .begin:
                ids += 1
                controller.nextSessionID = "s\(ids)"
            default: break
            }
        }
    }
}

@Suite("Session controller")
struct SessionControllerTests {
    @Test func startIsAnchoredOnGPSTimeOnceFixesHaveTaughtIt() {
        var idle = Recorder()
        idle.command(.start, id: "a", at: 5)
        #expect(
            idle.actions.first
                == .begin(sessionID: "s0", activity: .running, startedAt: TimeAnchor(source: .system, seconds: 42))
        )

        var taught = Recorder()
        taught.feed(line(from: t0, seconds: 3))
        // Monotonic 1010.05 is GPS t0 + 10 by the offset the fixes showed.
        taught.command(.start, id: "a", at: 1010.05)
        guard case .begin(_, _, let anchor)? = taught.actions.first else {
            Issue.record("no begin")
            return
        }
        #expect(anchor.source == .gps)
        #expect(abs(anchor.seconds - (t0 + 10)) < 1e-6)
    }

    @Test func aRepeatedCommandIdIsAnsweredAgainAndNeverAppliedTwice() {
        var recorder = Recorder()
        let first = recorder.command(.start, id: "start-1", at: 1000)
        recorder.feed(line(from: t0, seconds: 60))
        let actionsBefore = recorder.actions.count
        let again = recorder.command(.start, id: "start-1", at: 1100)
        #expect(again == first)
        #expect(recorder.actions.count == actionsBefore)
        let pause = recorder.command(.pause, id: "p", at: 1100)
        #expect(pause.accepted)
        let pauseAgain = recorder.command(.pause, id: "p", at: 1101)
        #expect(pauseAgain == pause)
        // A new id for the same command is a new request, refused on its merits.
        let other = recorder.command(.pause, id: "p2", at: 1101)
        #expect(!other.accepted)
        #expect(recorder.controller.lifecycle.state == .paused(.command))
    }

    @Test func aManualPauseCreditsNoDistanceAndCountsAsPaused() {
        var recorder = Recorder()
        recorder.command(.start, id: "s", at: 999)
        recorder.feed(line(from: t0, seconds: 61))
        recorder.command(.pause, id: "p", at: 1060.5)
        // The wearer walks on at 3 m/s while paused (into a shop, say): none of it counts.
        recorder.feed(line(from: t0 + 61, seconds: 60))
        recorder.command(.resume, id: "r", at: 1120.5)
        recorder.feed(line(from: t0 + 121, seconds: 60))
        let track = recorder.controller.session!.track
        #expect(abs(track.distance - 2 * 180) < 6, "distance \(track.distance)")
        #expect(abs(track.elapsed - 180) < 0.001)
        #expect(abs(track.pausedTime - 61) < 0.001)
        #expect(abs(track.movingTime - 119) < 0.001)
        let kinds = recorder.actions.compactMap { action -> String? in
            if case .recordEvent(_, _, let event, _) = action { return event.kind }
            return nil
        }
        #expect(kinds.contains("paused") && kinds.contains("resumed"))
    }

    @Test func endFinishesWithTheSummaryAndReturnsToIdle() {
        var recorder = Recorder()
        recorder.command(.start, id: "s", at: 999)
        recorder.feed(line(from: t0, seconds: 30))
        let reply = recorder.command(.end, id: "e", at: 1030)
        #expect(reply.accepted && reply.state == .idle && reply.sessionID == "s0")
        guard
            case .finish(let id, let summary, .command, let endedAt)? = recorder.actions.last(where: {
                if case .finish = $0 { true } else { false }
            })
        else {
            Issue.record("no finish")
            return
        }
        #expect(id == "s0")
        #expect(abs(summary.distance - 87) < 3)
        #expect(endedAt == TimeAnchor(source: .gps, seconds: t0 + 29))
        #expect(recorder.controller.session == nil)
        // Fixes after the end belong to no session and are not logged.
        let before = recorder.actions.count
        recorder.feed(line(from: t0 + 30, seconds: 5))
        #expect(recorder.actions.count == before)
    }

    /// The crash-recovery contract: the journal rebuilds exactly the state it was cut from.
    @Test func theJournalRebuildsTheSessionExactly() {
        var recorder = Recorder()
        recorder.command(.start, id: "s", at: 999)
        recorder.feed(line(from: t0, seconds: 100))
        recorder.command(.pause, id: "p", at: 1100)
        recorder.feed(line(from: t0 + 100, seconds: 20))
        recorder.command(.resume, id: "r", at: 1120)
        recorder.feed(line(from: t0 + 120, seconds: 80))
        let original = recorder.controller.session!.track

        var rebuilt = SessionController(
            configuration: .init(),
            nextSessionID: "x",
            recovering: "s0",
            activity: .running,
            startedAt: TimeAnchor(source: .system, seconds: 42),
            journal: recorder.journal,
            nextSeq: 500,
            restartedAt: 5
        )
        let track = rebuilt.session!.track
        #expect(track.distance == original.distance)
        #expect(track.elapsed == original.elapsed)
        #expect(track.pausedTime == original.pausedTime)
        #expect(track.acceptedCount == original.acceptedCount)
        #expect(rebuilt.lifecycle.state == .active)
        // Commands already applied before the crash are answered, not applied again.
        let (again, actions) = rebuilt.handle(.pause, id: "p", receivedAt: 6, systemTime: 0)
        #expect(again.accepted && actions.isEmpty && rebuilt.lifecycle.state == .active)
        let (start, _) = rebuilt.handle(.start, id: "s", receivedAt: 6, systemTime: 0)
        #expect(start.accepted && start.message == "session started")

        // The daemon was down 30 s while the wearer ran on: the gap is logged and bridged once.
        let resumed = rebuilt.ingest(line(from: t0 + 230, seconds: 1)[0])
        let kinds = resumed.compactMap { action -> String? in
            if case .recordEvent(_, _, let event, _) = action { return event.kind }
            return nil
        }
        #expect(kinds.contains("restart_gap") && kinds.contains("gap_bridged"))
        // Rows after the restart continue the session's sequence, never reuse it.
        #expect(resumed.contains { if case .recordFix(_, let seq, _, _) = $0 { seq > 500 } else { false } })
        let after = rebuilt.session!.track
        #expect(abs(after.distance - original.distance - 90) < 5, "gap credited \(after.distance - original.distance)")
        #expect(abs(after.elapsed - original.elapsed - 31) < 0.001)
    }

    @Test func aSessionWithoutSamplesForTooLongIsAbandoned() {
        var recorder = Recorder(.init(abandonAfter: 600))
        recorder.command(.start, id: "s", at: 999)
        recorder.feed(line(from: t0, seconds: 10))
        #expect(
            recorder.controller.tick(receivedAt: 1500).contains { if case .finish = $0 { true } else { false } }
                == false
        )
        let actions = recorder.controller.tick(receivedAt: 1010.05 + 601)
        #expect(
            actions.contains {
                if case .finish(_, _, .abandoned, TimeAnchor(source: .gps, seconds: t0 + 9)?) = $0 {
                    true
                } else {
                    false
                }
            }
        )
        #expect(recorder.controller.lifecycle.state == .idle && recorder.controller.session == nil)
    }

    @Test func aRecoveredSessionIsAbandonedWhenTheFirstFixShowsItWasLeftTooLongAgo() {
        var recorder = Recorder(.init(autostart: true, abandonAfter: 3600))
        recorder.feed(line(from: t0, seconds: 20))
        #expect(recorder.controller.session?.id == "s0")
        var rebuilt = SessionController(
            configuration: .init(autostart: true, abandonAfter: 3600),
            nextSessionID: "s1",
            recovering: "s0",
            activity: .running,
            startedAt: TimeAnchor(source: .gps, seconds: t0),
            journal: recorder.journal,
            nextSeq: 100,
            restartedAt: 3
        )
        // Booted the next morning: the first fix ends the old session and (autostart) begins a new one.
        let actions = rebuilt.ingest(line(from: t0 + 86_400, seconds: 1)[0])
        #expect(
            actions.contains {
                if case .finish("s0", _, .abandoned, TimeAnchor(source: .gps, seconds: t0 + 19)?) = $0 {
                    true
                } else {
                    false
                }
            }
        )
        #expect(
            actions.contains {
                if case .begin("s1", .running, TimeAnchor(source: .gps, seconds: t0 + 86_400)) = $0 {
                    true
                } else {
                    false
                }
            }
        )
        #expect(rebuilt.session?.id == "s1")
    }

    @Test func autostartBeginsAtTheFirstGoodFixOnly() {
        var recorder = Recorder(.init(autostart: true))
        recorder.feed([Fix(mode: 1, time: GPSTime(seconds: t0 - 5), position: nil)])
        recorder.feed([Fix(mode: 3, time: GPSTime(seconds: t0 - 4), position: GeoPoint(latitude: 0, longitude: 0))])
        #expect(recorder.controller.session == nil)
        recorder.feed(line(from: t0, seconds: 5))
        #expect(
            recorder.actions.first
                == .begin(sessionID: "s0", activity: .running, startedAt: TimeAnchor(source: .gps, seconds: t0))
        )
        #expect(recorder.controller.lifecycle.state == .active)
    }

    @Test func gpsLossBySilenceIsASessionEvent() {
        var recorder = Recorder(.init(gpsLostAfter: 4))
        recorder.command(.start, id: "s", at: 999)
        recorder.feed(line(from: t0, seconds: 10))
        let quiet = recorder.controller.tick(receivedAt: 1009.05 + 3)
        #expect(quiet.isEmpty)
        let lost = recorder.controller.tick(receivedAt: 1009.05 + 5)
        #expect(lost.contains { if case .recordEvent(_, _, let e, _) = $0 { e.kind == "gps_lost" } else { false } })
    }
}

@Suite("Session controller: heart rate")
struct SessionControllerHeartRateTests {
    private let zones = HeartRateZones(maxHeartRate: 200)

    private func beat(_ bpm: Int, at t: Double, contact: String = "detected") -> HeartRateSample {
        HeartRateSample(
            bpm: bpm,
            contact: contact,
            rrIntervals: [UInt16(61_440 / bpm)],
            receivedAt: t,
            payload: [0x16, UInt8(bpm)]
        )
    }

    @Test func beatsAreLoggedOnlyInASessionAndFeedItsFigures() {
        var controller = SessionController(configuration: .init(heartRateZones: zones), nextSessionID: "s0")
        #expect(controller.heartRate(beat(120, at: 10)).isEmpty, "no session: nothing to log it in")
        _ = controller.handle(.start, id: "a", receivedAt: 11, systemTime: 0)
        let actions = (0..<10).flatMap { controller.heartRate(beat(150 + $0, at: 12 + Double($0))) }
        let rows = actions.compactMap {
            if case .recordHeartRate(let id, let seq, let sample, _) = $0 { (id, seq, sample) } else { nil }
        }
        #expect(rows.count == 10 && rows.allSatisfy { $0.0 == "s0" })
        #expect(rows.map(\.1) == Array(rows[0].1..<(rows[0].1 + 10)), "rows take the session's sequence")
        #expect(rows[3].2.payload == [0x16, 153])
        let stats = controller.session!.track.heartRate!
        #expect(stats.sampleCount == 10 && stats.maximum == 159 && stats.average == 154.5)
    }

    @Test func beatsWithoutSkinContactAreLoggedButNotCounted() {
        var controller = SessionController(configuration: .init(heartRateZones: zones), nextSessionID: "s0")
        _ = controller.handle(.start, id: "a", receivedAt: 1, systemTime: 0)
        #expect(controller.heartRate(beat(140, at: 2)).count == 1)
        #expect(controller.heartRate(beat(30, at: 3, contact: "not_detected")).count == 1)
        #expect(controller.session!.track.heartRate!.sampleCount == 1)
    }

    @Test func strapEventsAreSessionEventsWithTheirDetail() {
        var controller = SessionController(configuration: .init(), nextSessionID: "s0")
        let lost = LoggedEvent(kind: "strap_lost", detail: ["reason": .text("silent")])
        #expect(controller.strap(lost, receivedAt: 1).isEmpty)
        _ = controller.handle(.start, id: "a", receivedAt: 1, systemTime: 0)
        guard case .recordEvent("s0", _, let event, 2)? = controller.strap(lost, receivedAt: 2).first else {
            Issue.record("no event recorded")
            return
        }
        #expect(event.kind == "strap_lost" && event.detail["reason"] == .text("silent"))
    }

    @Test func theJournalRebuildsHeartRateFiguresToo() {
        var controller = SessionController(configuration: .init(heartRateZones: zones), nextSessionID: "s0")
        _ = controller.handle(.start, id: "a", receivedAt: 1, systemTime: 0)
        var journal: [SessionController.JournalEntry] = [.command(.start, id: "a")]
        for i in 0..<30 {
            let sample = beat(100 + i * 3, at: 2 + Double(i))
            _ = controller.heartRate(sample)
            journal.append(.heartRate(sample))
        }
        let rebuilt = SessionController(
            configuration: .init(heartRateZones: zones),
            nextSessionID: "x",
            recovering: "s0",
            activity: .running,
            startedAt: TimeAnchor(source: .system, seconds: 0),
            journal: journal,
            nextSeq: 40,
            restartedAt: 100
        )
        let before = controller.session!.track.heartRate!
        let after = rebuilt.session!.track.heartRate!
        #expect(after.sampleCount == 30 && after.average == before.average && after.timeInZone == before.timeInZone)
    }
}
