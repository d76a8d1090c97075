import Engine
import SessionCore
import SyntheticReceivers
import Testing
import TrackCore

/// A disk that fails, fills, is slow, and a shutdown in the middle of it: through the engine core
/// with a manual clock. Nothing is acknowledged that is not on disk; every request is answered
/// once; memory stays bounded, raw fixes going first.
@Suite("Engine core: storage and shutdown")
struct SessionEngineStorageTests {
    private func failure(_ reply: EngineReply?) -> CommandFailure? {
        if case .failed(let failure)? = reply { return failure }
        return nil
    }

    @Test func aFullDiskGetsErrorRepliesAndRecordingResumesWhenSpaceIsBack() throws {
        var harness = EngineHarness()
        harness.command(.start, id: "s")
        harness.ride(StraightLine.fixes(from: StraightLine.t0, seconds: 60))
        let id = try #require(harness.sessionID)

        // The disk fills: the next second's commit fails; the outage is announced, once.
        harness.health = .failing(EngineHarness.full)
        harness.ride(StraightLine.fixes(from: StraightLine.t0 + 60, seconds: 1))
        #expect(harness.events.filter { if case .storageFailed = $0 { true } else { false } }.count == 1)
        #expect(harness.status()?.storage.failure == EngineHarness.full)
        let distanceAtFailure = try #require(harness.engine.controller.session).track.distance

        // While it is full: a command is refused at once, naming the cause, and not applied.
        let pause = harness.command(.pause, id: "p")
        let refused = try #require(failure(harness.reply(pause)))
        #expect(refused.reason == .storageFailing && refused.message.contains("storage full"), "\(refused)")
        #expect(refused.message.contains("database or disk is full"))
        #expect(harness.engine.controller.lifecycle.state == .active)
        // Fixes are given up whole (neither logged nor taken in); memory holds what failed only.
        harness.ride(StraightLine.fixes(from: StraightLine.t0 + 61, seconds: 30))
        let held = try #require(harness.status()?.storage)
        #expect(held.dropped.fixes == 30 && held.pendingRows < 10, "\(held)")
        #expect(try #require(harness.engine.controller.session).track.distance == distanceAtFailure)
        // Retried every 2 s, not at every tick or fix.
        #expect((15...17).contains(harness.failedAttempts), "\(harness.failedAttempts) attempts in 31 s")
        #expect(harness.events.filter { if case .storageFailed = $0 { true } else { false } }.count == 1)

        // Space is back: the next attempt commits what was held; recording resumes by itself, and
        // the time without fixes is bridged like a GPS outage.
        harness.health = .healthy
        harness.tick(until: harness.now.monotonic + 2)
        #expect(harness.status()?.storage.failure == nil)
        let recovered = harness.events.compactMap { event -> DropCounts? in
            if case .storageRecovered(_, let dropped) = event { dropped } else { nil }
        }
        #expect(recovered == [DropCounts(fixes: 30)])
        harness.ride(StraightLine.fixes(from: StraightLine.t0 + 93, seconds: 3))
        #expect(harness.events.contains { if case .track(.gapBridged) = $0 { true } else { false } })
        let gained = try #require(harness.engine.controller.session).track.distance - distanceAtFailure
        #expect(abs(gained - 3 * 35) < 10, "bridged \(gained) m over the outage")
        let stored = harness.storedEvents.map(\.announcement.event)
        let full = try #require(stored.firstIndex(of: .storageFailed(EngineHarness.full)))
        let back = try #require(stored.firstIndex { if case .storageRecovered = $0 { true } else { false } })
        #expect(full < back)
        // The refused pause, asked again with its id, is applied now and acknowledged.
        let again = harness.command(.pause, id: "p")
        guard case .command(let paused)? = harness.reply(again) else {
            Issue.record("pause not answered once storage is back")
            return
        }
        #expect(paused.accepted && paused.state == .paused(.command) && paused.sessionID == id)
    }

    /// A command whose own commit fails is applied here but not durable: an error naming the cause,
    /// and the same id asked again gets the next attempt's answer, an acknowledgement only once
    /// its row is on disk.
    @Test func aCommandWhoseCommitFailsIsAnErrorUntilItIsDurable() throws {
        var harness = EngineHarness()
        harness.command(.start, id: "s")
        harness.ride(StraightLine.fixes(from: StraightLine.t0, seconds: 20))
        harness.health = .failing(EngineHarness.full)
        let pause = harness.command(.pause, id: "p")
        let notDurable = try #require(failure(harness.reply(pause)))
        #expect(notDurable.reason == .notDurable && notDurable.message.contains("database or disk is full"))
        #expect(harness.engine.controller.lifecycle.state == .paused(.command))
        let retry = harness.command(.pause, id: "p")
        #expect(harness.reply(retry) == nil, "waits for the next attempt")
        harness.tick(until: harness.now.monotonic + 3)
        #expect(failure(harness.reply(retry))?.reason == .notDurable)
        harness.health = .healthy
        harness.tick(until: harness.now.monotonic + 3)
        #expect(harness.disk.contains { $0.commandID == "p" })
        let again = harness.command(.pause, id: "p")
        guard case .command(let paused)? = harness.reply(again) else {
            Issue.record("not acknowledged once durable")
            return
        }
        #expect(paused.accepted)
    }

    /// A disk that never answers (a hung card): rows pile up in the core only to the bound, and
    /// what goes first is raw fixes; lifecycle rows and commands are all kept.
    @Test func aStuckDiskKeepsMemoryBoundedRawFixesFirst() throws {
        var harness = EngineHarness(maxPendingRows: 200)
        harness.command(.start, id: "s")
        harness.autoSettle = false
        harness.command(.pause, id: "p")
        harness.settleOne()  // lookup; the pause's batch is now in flight and never comes back
        harness.command(.resume, id: "r")
        harness.settleOne()  // lookup only: the writer is stuck on the batch before
        harness.feed(StraightLine.fixes(from: StraightLine.t0, seconds: 2000))
        harness.tick(until: StraightLine.received(StraightLine.t0 + 2001))
        let storage = try #require(harness.status()?.storage)
        #expect(storage.pendingRows <= 200, "\(storage.pendingRows)")
        #expect(storage.dropped.fixes > 1700 && storage.dropped.beats == 0, "\(storage.dropped)")
        // The disk comes back: the resume and every lifecycle row are there.
        harness.settle()
        harness.autoSettle = true
        harness.tick(until: StraightLine.received(StraightLine.t0 + 2003))
        #expect(harness.disk.contains { $0.commandID == "r" })
        #expect(harness.disk.filter { if case .state = $0 { true } else { false } }.count >= 3)
        #expect(harness.requests.isEmpty && harness.engine.controller.lifecycle.state == .active)
    }

    @Test func shutdownWritesTheLastBatchAnswersEveryoneOnceAndClosesTheWriter() throws {
        var harness = EngineHarness()
        harness.command(.start, id: "s")
        harness.feed(StraightLine.fixes(from: StraightLine.t0, seconds: 10))
        harness.autoSettle = false
        let pause = harness.command(.pause, id: "p")
        harness.settleOne()  // applied; its batch in flight
        harness.send(.shutdown)
        let late = harness.command(.resume, id: "late")
        #expect(failure(harness.reply(late))?.reason == .shuttingDown)
        harness.settle()
        // The pause committed before the writer closed: acknowledged; then the engine finished.
        #expect(harness.reply(pause).map { if case .command = $0 { true } else { false } } == true)
        #expect(harness.actions.contains(.persist(.close)))
        #expect(harness.actions.last == .finished(unwritten: 0))
        #expect(harness.engine.isFinished)
        let lastFix = harness.disk.lastIndex { if case .fix = $0 { true } else { false } }
        #expect(lastFix != nil, "the held epoch and the figures are written at shutdown")
    }

    /// The review's crash: at shutdown after failed commits, the last attempt succeeding answered
    /// the client twice (a second resume of its continuation), and one failing answered "ok".
    @Test func shutdownOnAFailingDiskAnswersWithAnErrorOnceAndReportsWhatIsLost() throws {
        for lastAttemptSucceeds in [false, true] {
            var harness = EngineHarness()
            harness.command(.start, id: "s")
            harness.feed(StraightLine.fixes(from: StraightLine.t0, seconds: 10))
            harness.health = .failing(EngineHarness.full)
            let pause = harness.command(.pause, id: "p")
            #expect(failure(harness.reply(pause))?.reason == .notDurable)
            let retry = harness.command(.pause, id: "p")
            harness.autoSettle = false
            harness.send(.shutdown)
            if lastAttemptSucceeds { harness.health = .healthy }
            harness.settle()
            harness.settle()
            #expect(harness.engine.isFinished)
            #expect(harness.replies[pause]?.count == 1 && harness.replies[retry]?.count == 1)
            if lastAttemptSucceeds {
                #expect(harness.reply(retry).map { if case .command = $0 { true } else { false } } == true)
                #expect(harness.actions.last == .finished(unwritten: 0))
            } else {
                #expect(failure(harness.reply(retry))?.reason == .notDurable)
                guard case .finished(let unwritten)? = harness.actions.last else {
                    Issue.record("not finished")
                    continue
                }
                #expect(unwritten > 0)
            }
        }
    }

    @Test func aLookupTheLogCannotAnswerIsAnErrorNotAGuess() {
        var harness = EngineHarness()
        harness.autoSettle = false
        let token = harness.command(.start, id: "x")
        harness.send(.storage(.lookedUp(commandID: "x", .failure(StorageFailure(.io, "disk I/O error")))))
        #expect(failure(harness.reply(token))?.reason == .lookupFailed)
        #expect(harness.sessionID == nil)
    }
}
