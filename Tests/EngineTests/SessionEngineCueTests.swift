import SyntheticReceivers
import Testing
import TrackCore

@testable import SessionCore

/// What the engine gives the cue sink: a reading once a tick while a session is open, the
/// recorded summary ahead of the end, and the player's outcomes logged as session events.
@Suite("Engine and cues")
struct SessionEngineCueTests {
    @Test func readingsComeOnceATickOnlyWithASessionAndOnlyWhenAsked() {
        var quiet = EngineHarness(readings: false)
        quiet.command(.start, id: "a")
        quiet.ride(StraightLine.fixes(from: StraightLine.t0, seconds: 20))
        #expect(!quiet.actions.contains { if case .reading = $0 { true } else { false } })

        var harness = EngineHarness(readings: true)
        harness.tick(until: 1005)
        #expect(!harness.actions.contains { if case .reading = $0 { true } else { false } }, "idle: none")
        harness.command(.start, id: "s")
        harness.ride(StraightLine.fixes(from: StraightLine.t0 + 10, seconds: 60))
        let readings = harness.actions.compactMap { if case .reading(let r) = $0 { r } else { nil } }
        #expect(readings.count >= 55)
        #expect(readings.last.map { $0.distance > 100 && $0.moving > 40 && !$0.isFinal } == true)
        #expect(zip(readings, readings.dropFirst()).allSatisfy { $0.distance <= $1.distance })
    }

    @Test func theEndComesWithTheRecordedSummaryFirst() {
        var harness = EngineHarness(readings: true)
        harness.command(.start, id: "s")
        harness.ride(StraightLine.fixes(from: StraightLine.t0, seconds: 60))
        let before = harness.actions.count
        harness.command(.end, id: "e")
        let after = Array(harness.actions[before...])
        let final = after.firstIndex { if case .reading(let r) = $0 { r.isFinal } else { false } }
        let ended = after.firstIndex { if case .announce(let a) = $0, case .ended = a.event { true } else { false } }
        #expect(final != nil && ended != nil && final! < ended!)
        guard case .reading(let reading)? = final.map({ after[$0] }) else { return }
        let summary = harness.disk.compactMap { if case .finish(_, let s, _, _) = $0 { s } else { nil } }.last
        #expect(summary.map { $0.distance == reading.distance && $0.moving == reading.moving } == true)
    }

    @Test func cueOutcomesAreSessionEventsInTheLog() {
        var harness = EngineHarness(readings: true)
        harness.command(.start, id: "s")
        harness.send(
            .cue(.spoken(kind: "session_started", text: "Session started.", delay: 0.02, synthesis: 0.01, audio: 0.9))
        )
        harness.send(.cue(.dropped(kind: "split", text: "Split 1", reason: "stale")))
        harness.tick(until: harness.now.monotonic + 2)
        let events = harness.disk.compactMap { if case .event(_, let a) = $0 { a.event } else { nil } }
        #expect(
            events.contains(
                .cue(
                    .spoken(kind: "session_started", text: "Session started.", delay: 0.02, synthesis: 0.01, audio: 0.9)
                )
            )
        )
        #expect(events.contains(.cue(.dropped(kind: "split", text: "Split 1", reason: "stale"))))
    }
}
