import SessionCore
import SyntheticReceivers
import Testing
import TrackCore

/// Commands through the engine core with a manual clock: replies only after the commit, once per
/// token; repeated ids answered, never applied twice; ids of earlier runs looked up by the writer.
@Suite("Engine core: commands")
struct SessionEngineCommandTests {
    private func beginRows(_ harness: EngineHarness) -> Int {
        harness.disk.filter { if case .begin = $0 { true } else { false } }.count
    }

    @Test func aCommandIsAnsweredOnceAndOnlyAfterItsBatchCommitted() {
        var harness = EngineHarness()
        harness.autoSettle = false
        let token = harness.command(.start, id: "a")
        // First the writer says whether the id is known; nothing is applied or answered before.
        #expect(harness.requests == [.lookUp(commandID: "a")])
        #expect(harness.reply(token) == nil && harness.sessionID == nil)
        harness.settleOne()
        // Applied now, written at once; still no answer: the batch is only in flight.
        guard case .write(let batch)? = harness.requests.first else {
            Issue.record("no batch after the command: \(harness.requests)")
            return
        }
        #expect(batch.rows.contains { $0.commandID == "a" })
        #expect(harness.reply(token) == nil)
        harness.settleOne()
        guard case .command(let reply)? = harness.reply(token) else {
            Issue.record("no durable reply")
            return
        }
        #expect(reply.accepted && reply.state == .active && reply.sessionID == harness.sessionID)
        // Ticks and fixes later never answer the token again (the harness counts).
        harness.autoSettle = true
        harness.feed(StraightLine.fixes(from: StraightLine.t0, seconds: 5))
        harness.tick(until: StraightLine.received(StraightLine.t0 + 8))
        #expect(harness.replies[token]?.count == 1)
    }

    @Test func aRepeatedIdGetsItsFirstAnswerAndIsNeverAppliedTwice() {
        var harness = EngineHarness()
        let first = harness.command(.start, id: "start-1")
        harness.feed(StraightLine.fixes(from: StraightLine.t0, seconds: 30))
        let again = harness.command(.start, id: "start-1")
        #expect(harness.reply(again) == harness.reply(first))
        #expect(beginRows(harness) == 1)
        let pause = harness.command(.pause, id: "p")
        let pauseAgain = harness.command(.pause, id: "p")
        #expect(harness.reply(pause) == harness.reply(pauseAgain))
        // A new id for the same command is a new request, refused on its merits.
        let other = harness.command(.pause, id: "p2")
        guard case .command(let refused)? = harness.reply(other) else {
            Issue.record("no reply to p2")
            return
        }
        #expect(!refused.accepted && refused.message == "the session is already paused")
        #expect(harness.engine.controller.lifecycle.state == .paused(.command))
        let commandRows = harness.disk.compactMap(\.commandID)
        #expect(commandRows == ["start-1", "p", "p2"], "each id logged once: \(commandRows)")
    }

    /// A retry that arrives while the first attempt's batch is still being written waits for the
    /// same commit, and is not applied again.
    @Test func aRetryWhileTheFirstIsInFlightWaitsForTheSameCommit() {
        var harness = EngineHarness()
        harness.command(.start, id: "s")
        harness.autoSettle = false
        let first = harness.command(.pause, id: "p")
        harness.settleOne()  // the lookup: applied, its batch handed out
        let retry = harness.command(.pause, id: "p")
        #expect(harness.reply(first) == nil && harness.reply(retry) == nil)
        #expect(harness.requests.count == 1, "no second lookup, no second batch")
        harness.settleOne()
        #expect(harness.reply(first) != nil && harness.reply(first) == harness.reply(retry))
    }

    /// After a restart the ledger is empty for ids of earlier sessions: the writer looks them up in
    /// the log (off the engine's loop), and the stored answer is given, not applied.
    @Test func anIdFromAnEarlierRunIsAnsweredFromTheLog() {
        let old = CommandReply(
            commandID: "old-end",
            command: .end,
            accepted: true,
            message: "session ended",
            sessionID: "yesterday",
            state: .idle
        )
        var harness = EngineHarness(disk: [.command(sessionID: "yesterday", seq: 40, old, receivedAt: 5)])
        let token = harness.command(.start, id: "old-end")
        #expect(harness.actions.contains(.persist(.lookUp(commandID: "old-end"))))
        #expect(harness.reply(token) == .command(old))
        #expect(harness.sessionID == nil, "not applied: an end is not a start")
        // Now known: a second retry costs no read.
        let before = harness.actions.count
        let again = harness.command(.start, id: "old-end")
        #expect(harness.reply(again) == .command(old))
        #expect(!harness.actions[before...].contains(.persist(.lookUp(commandID: "old-end"))))
    }

    @Test func startIsAnchoredOnGPSTimeOnceFixesHaveTaughtIt() {
        var idle = EngineHarness()
        idle.command(.start, id: "a", activity: .walking)
        guard case .begin(_, .walking, let systemAnchor, _, _, _)? = idle.disk.first else {
            Issue.record("no begin: \(idle.disk)")
            return
        }
        #expect(systemAnchor == TimeAnchor(source: .system, seconds: 1_700_000_000))

        var taught = EngineHarness()
        taught.feed(StraightLine.fixes(from: StraightLine.t0, seconds: 3))
        taught.now.monotonic = StraightLine.received(StraightLine.t0 + 10)
        taught.command(.start, id: "a")
        guard case .begin(_, _, let anchor, _, _, _)? = taught.disk.first else {
            Issue.record("no begin")
            return
        }
        #expect(anchor.source == .gps && abs(anchor.seconds - (StraightLine.t0 + 10)) < 1e-6)
    }

    /// The crash-recovery contract, through the same core: the journal a run left rebuilds its
    /// session exactly; its commands are answered, not applied; the downtime is bridged once.
    @Test func crashRecoveryRebuildsTheSessionThroughTheSameCore() throws {
        var before = EngineHarness(.init(heartRateZones: HeartRateZones(maxHeartRate: 200)), strap: true)
        let start = before.command(.start, id: "s")
        before.feed(StraightLine.fixes(from: StraightLine.t0, seconds: 100))
        let pause = before.command(.pause, id: "p")
        before.feed(StraightLine.fixes(from: StraightLine.t0 + 100, seconds: 20))
        before.command(.resume, id: "r")
        for i in 0..<20 {
            let at = StraightLine.received(StraightLine.t0 + 120 + Double(i))
            before.send(
                .strap(.beat(.init(bpm: 140 + i, contact: .detected), payload: [0x06, UInt8(140 + i)], receivedAt: at))
            )
        }
        before.feed(StraightLine.fixes(from: StraightLine.t0 + 120, seconds: 80))
        before.tick(until: StraightLine.received(StraightLine.t0 + 201))
        let original = try #require(before.engine.controller.session)
        let journal = try #require(before.journal(of: original.id))

        var after = EngineHarness(
            .init(heartRateZones: HeartRateZones(maxHeartRate: 200)),
            strap: true,
            open: [journal],
            disk: before.disk,
            startingAt: 5000
        )
        let rebuilt = try #require(after.engine.controller.session)
        #expect(rebuilt.id == original.id)
        #expect(rebuilt.track.distance == original.track.distance)
        #expect(rebuilt.track.elapsed == original.track.elapsed)
        #expect(rebuilt.track.pausedTime == original.track.pausedTime)
        #expect(rebuilt.track.heartRate?.average == original.track.heartRate?.average)
        #expect(after.engine.controller.lifecycle.state == .active)
        after.send(.tick)
        #expect(
            after.events.first == .recovered(distance: original.track.distance, lastFix: original.track.lastFixTime)
        )
        // Commands already applied before the crash are answered, not applied again.
        let rows = after.disk.count
        let pauseAgain = after.command(.pause, id: "p")
        let startAgain = after.command(.start, id: "s")
        #expect(after.reply(pauseAgain) == before.reply(pause))
        #expect(after.reply(startAgain) == before.reply(start))
        #expect(after.engine.controller.lifecycle.state == .active)
        #expect(!after.disk[rows...].contains { $0.commandID != nil })
        // The daemon was down 30 s while the wearer ran on: the gap is logged and bridged once.
        after.feed(StraightLine.fixes(from: StraightLine.t0 + 230, seconds: 2))
        #expect(after.events.contains(.restartGap(down: 31)))
        #expect(after.events.contains { if case .track(.gapBridged) = $0 { true } else { false } })
        let seqs = after.disk[rows...].compactMap { row -> Int? in
            if case .fix(_, let seq, _, _) = row { seq } else { nil }
        }
        #expect(seqs.allSatisfy { $0 >= journal.nextSeq }, "rows after the restart continue the sequence")
        let gained = try #require(after.engine.controller.session).track.distance - original.track.distance
        #expect(abs(gained - 93) < 5, "gap credited \(gained)")
    }

    @Test func olderLeftoversAreClosedAsAbandonedAndTheNewestResumed() throws {
        var first = EngineHarness()
        first.command(.start, id: "a")
        first.ride(StraightLine.fixes(from: StraightLine.t0, seconds: 20))
        let firstID = try #require(first.sessionID)
        let older = try #require(first.journal(of: firstID))
        var second = EngineHarness()
        second.command(.start, id: "b")
        second.ride(StraightLine.fixes(from: StraightLine.t0 + 100, seconds: 20))
        let secondID = try #require(second.sessionID)
        let newer = try #require(second.journal(of: secondID))
        var harness = EngineHarness(open: [older, newer], disk: first.disk + second.disk)
        harness.send(.tick)
        #expect(harness.sessionID == newer.id)
        let abandoned = harness.disk.contains {
            if case .finish(older.id, _, .abandoned, TimeAnchor(source: .gps, seconds: StraightLine.t0 + 19)?) = $0 {
                true
            } else {
                false
            }
        }
        #expect(abandoned, "\(harness.disk)")
    }
}
