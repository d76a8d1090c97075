import Engine
import PhoneLinkMessages
import SessionCore
import SyntheticReceivers
import Testing
import TrackCore

/// The outbox as the engine core fills it: each message in the same batch as its cause, phone
/// replies durable, expired commands refused and never applied, snapshots coalesced by the tick.
@Suite("Engine core: the phone link's outbox")
struct SessionEngineLinkTests {
    private func outbox(_ rows: [LogRow]) -> [LinkMessage] {
        rows.compactMap { if case .outbox(let message, _) = $0 { message } else { nil } }
    }

    @Test func aPhoneCommandsReplyIsWrittenInTheBatchOfItsCommandRow() {
        var harness = EngineHarness(phoneLink: true)
        harness.autoSettle = false
        harness.phoneCommand(.start, id: "phone-1", expiresAt: harness.now.monotonic + 60)
        harness.settleOne()  // the look-up: a new id
        guard case .write(let batch)? = harness.requests.first else {
            Issue.record("no batch: \(harness.requests)")
            return
        }
        #expect(batch.rows.contains { $0.commandID == "phone-1" })
        let messages = outbox(batch.rows)
        #expect(
            messages.contains {
                if case .commandReply(let r) = $0 { r.commandID == "phone-1" && r.accepted } else { false }
            }
        )
        #expect(messages.contains { if case .started = $0 { true } else { false } }, "the start, with its cause")
    }

    @Test func aCommandThatArrivesExpiredIsRefusedAndNeverApplied() {
        var harness = EngineHarness(phoneLink: true)
        let token = harness.phoneCommand(.start, id: "late", expiresAt: harness.now.monotonic - 5)
        guard case .command(let reply)? = harness.reply(token) else {
            Issue.record("no durable reply")
            return
        }
        #expect(!reply.accepted && reply.refusal == .expired)
        #expect(harness.sessionID == nil, "an expired start must not start anything")
        // The same id again, even valid now: the first answer, still not applied.
        let again = harness.phoneCommand(.start, id: "late", expiresAt: harness.now.monotonic + 60)
        #expect(harness.reply(again) == .command(reply))
        #expect(harness.sessionID == nil)
        let replies = outbox(harness.logged).filter { if case .commandReply = $0 { true } else { false } }
        #expect(replies.count == 2, "each ask from the phone answered through the outbox: \(replies)")
    }

    @Test func refusalsCarryTheirReasonCodes() {
        var harness = EngineHarness(phoneLink: true)
        let pause = harness.phoneCommand(.pause, id: "p", expiresAt: nil)
        guard case .command(let reply)? = harness.reply(pause) else {
            Issue.record("no reply")
            return
        }
        #expect(reply.refusal == .notActive)
        harness.phoneCommand(.start, id: "s", expiresAt: nil)
        let again = harness.phoneCommand(.start, id: "s2", expiresAt: nil)
        guard case .command(let second)? = harness.reply(again) else {
            Issue.record("no reply")
            return
        }
        #expect(second.refusal == .alreadyActive)
    }

    @Test func snapshotsFollowTheTickAndOnlyWhenTheFiguresChanged() {
        var harness = EngineHarness(phoneLink: true)
        harness.command(.start, id: "s")
        harness.ride(StraightLine.fixes(from: StraightLine.t0, seconds: 20))
        let snapshots = outbox(harness.logged).filter { if case .snapshot = $0 { true } else { false } }
        #expect(snapshots.count >= 15 && snapshots.count <= 21, "about one a second: \(snapshots.count)")
        let before = outbox(harness.logged).count
        harness.phoneCommand(.pause, id: "p", expiresAt: nil)
        let lifecycle = outbox(harness.logged).dropFirst(before)
        #expect(lifecycle.contains { if case .paused(_, let auto, _, _) = $0 { !auto } else { false } })
    }

    @Test func withoutAPhoneNothingGoesToTheOutbox() {
        var harness = EngineHarness()
        harness.command(.start, id: "s")
        harness.ride(StraightLine.fixes(from: StraightLine.t0, seconds: 10))
        #expect(outbox(harness.logged).isEmpty)
    }
}
