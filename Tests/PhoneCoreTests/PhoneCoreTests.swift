import PhoneCore
import PhoneLinkDelivery
import PhoneLinkMessages
import SessionCore
import Testing

/// The phone's core as `SessionEngine` is tested: inputs and simulated time in, actions compared,
/// no database, no clock, no socket.
@Suite("Phone core: streams, commands, backfill and the partner feed")
struct PhoneCoreTests {
    private let pi = PhoneConnection(id: 1, wearable: "pi")

    /// A core with `connection` open at `now` on epoch "e" with the given marks.
    private func opened(
        _ connection: PhoneConnection,
        mark: InboxMark = InboxMark(mark: 0, snapshot: 0, head: 0),
        into core: inout PhoneCore,
        at now: Double = 0
    ) -> [PhoneAction] {
        let asked = core.handle(.hello(connection, name: "Pi", epoch: "e", head: 5), now: now)
        #expect(asked == [.readMark(connection, epoch: "e")])
        return core.handle(.mark(connection, mark), now: now)
    }

    private func command(
        _ id: String,
        _ kind: SessionCommand,
        at issued: Double,
        deadline: Double = 100
    )
        -> PhoneInput.QueuedFacts
    {
        PhoneInput.QueuedFacts(
            wearable: "pi",
            command: .init(
                id: id,
                kind: kind,
                activity: kind == .start ? .walking : nil,
                issuedAt: issued,
                validFor: 60,
                deadline: deadline
            )
        )
    }

    private func sent(_ actions: [PhoneAction]) -> [String] {
        actions.compactMap { if case .send(let command, _) = $0 { command.id } else { nil } }
    }

    @Test func aHelloOpensTheStreamWithItsMarksAndAnEmptyOrOverlongEpochIsRefused() {
        var core = PhoneCore()
        #expect(core.handle(.hello(pi, name: "Pi", epoch: "", head: 1), now: 0) == [.refuse(pi, .badEpoch)])
        let long = String(repeating: "x", count: PhoneStream.maxEpochBytes + 1)
        #expect(core.handle(.hello(pi, name: "Pi", epoch: long, head: 1), now: 0) == [.refuse(pi, .badEpoch)])
        #expect(core.connected.isEmpty)
        let actions = opened(pi, mark: InboxMark(mark: 3, snapshot: 7, head: 0), into: &core, at: 10)
        guard case .opened(pi, "Pi", let stream) = actions.first else {
            Issue.record("no opened first: \(actions)")
            return
        }
        #expect(stream.mark == InboxMark(mark: 3, snapshot: 7, head: 5), "the hello's head joins the stored marks")
        #expect(
            Array(actions.dropFirst())
                == [.welcome(pi, through: 3, snapshot: 7), .handRacesAgain(wearable: "pi"), .askBackfill(pi)]
        )
        #expect(core.epoch(of: pi) == "e")
    }

    @Test func envelopesAreCommittedBeforeTheirAckAndResendsAreAckedWithoutAStore() {
        var core = PhoneCore()
        _ = opened(pi, into: &core)
        let started = EnvelopeFacts(seq: 1, messageClass: .critical, kind: .sessionStarted)
        #expect(core.handle(.envelope(pi, started), now: 0.5) == [.commit(pi, seq: 1, unknownKind: false)])
        #expect(core.handle(.committed(pi, stored: true), now: 0.5) == [.ack(pi, through: 1, snapshot: 0)])
        #expect(
            core.handle(.envelope(pi, started), now: 1.2)
                == [.seen(wearable: "pi"), .dropped(pi, seq: 1, .duplicate), .ack(pi, through: 1, snapshot: 0)],
            "a resend: acknowledged again, and the link's last-seen time written once a second"
        )
        let unknown = EnvelopeFacts(seq: 2, messageClass: .notice, kind: nil)
        #expect(core.handle(.envelope(pi, unknown), now: 1.3) == [.commit(pi, seq: 2, unknownKind: true)])
        #expect(core.handle(.committed(pi, stored: true), now: 1.3) == [.ack(pi, through: 2, snapshot: 0)])
        let impossible = EnvelopeFacts(seq: 9, messageClass: .snapshot, impossibility: "elapsed 1 s", kind: .snapshot)
        #expect(
            core.handle(.envelope(pi, impossible), now: 1.4)
                == [.dropped(pi, seq: 9, .impossible("elapsed 1 s")), .ack(pi, through: 2, snapshot: 9)],
            "an impossible snapshot is not stored, but its seq is spent"
        )
        let classless = EnvelopeFacts(seq: 10, messageClass: nil, kind: .split)
        #expect(
            core.handle(.envelope(pi, classless), now: 1.5)
                == [.dropped(pi, seq: 10, .invalid("no seq or class")), .ack(pi, through: 2, snapshot: 9)]
        )
    }

    @Test func aNewerStreamReplacesTheOlderWhoseMessagesEndItAndWhoseCloseLeavesTheLinkConnected() {
        var core = PhoneCore()
        _ = opened(pi, into: &core)
        let newer = PhoneConnection(id: 2, wearable: "pi")
        let actions = opened(newer, into: &core, at: 1)
        #expect(actions.first == .replace(pi))
        let facts = EnvelopeFacts(seq: 1, messageClass: .critical, kind: .split)
        #expect(
            core.handle(.envelope(pi, facts), now: 2) == [.end(pi)],
            "the older stream is ended at its next message"
        )
        #expect(core.handle(.closed(pi), now: 2) == [], "its close does not say the wearable went")
        #expect(core.connected == [newer])
        #expect(core.handle(.closed(newer), now: 3) == [.disconnected(wearable: "pi")])
        #expect(core.connected.isEmpty)
    }

    @Test func commandsGoOutInIssueOrderOnlyToAConnectedWearableAndAgainAfterAReconnection() {
        var core = PhoneCore(retryEvery: 8)
        let queued = [command("b", .pause, at: 2), command("a", .start, at: 1)]
        #expect(sent(core.handle(.queued(queued), now: 3)) == [], "not connected: nothing sent")
        #expect(core.waiting.count == 2, "nothing settled either")
        _ = opened(pi, into: &core, at: 3.5)
        #expect(sent(core.handle(.queued(queued), now: 3.5)) == ["a", "b"], "in issue order at once")
        #expect(sent(core.handle(.queued(queued), now: 4)) == [], "once per period")
        _ = core.handle(.closed(pi), now: 4.5)
        let again = PhoneConnection(id: 2, wearable: "pi")
        _ = opened(again, into: &core, at: 5)
        let resent = core.handle(.queued(queued), now: 5)
        #expect(sent(resent) == ["a", "b"], "everything waiting goes again after the cut")
        #expect(resent.allSatisfy { if case .send(_, let to) = $0 { to == again } else { true } })
    }

    @Test func anAnswerOrARejectionStopsTheResendsAndAnAnswerForAnUnknownIdIsHarmless() {
        var core = PhoneCore(retryEvery: 8)
        _ = opened(pi, into: &core)
        #expect(sent(core.handle(.queued([command("a", .end, at: 1)]), now: 1)) == ["a"])
        let reply = EnvelopeFacts(seq: 1, messageClass: .critical, kind: .commandReply, answers: "a")
        _ = core.handle(.envelope(pi, reply), now: 2)
        _ = core.handle(.committed(pi, stored: true), now: 2)
        let stray = EnvelopeFacts(seq: 2, messageClass: .critical, kind: .commandReply, answers: "z")
        _ = core.handle(.envelope(pi, stray), now: 2)
        #expect(core.handle(.committed(pi, stored: true), now: 2) == [.ack(pi, through: 2, snapshot: 0)])
        #expect(sent(core.handle(.queued([]), now: 20)) == [], "answered: not sent again at its next period")
        #expect(core.waiting.isEmpty)
        #expect(sent(core.handle(.queued([command("b", .pause, at: 20)]), now: 20)) == ["b"])
        #expect(
            core.handle(.rejected(pi, command: "b", message: "cannot read"), now: 21)
                == [.seen(wearable: "pi"), .settle(command: "b", .rejected("cannot read"))]
        )
        #expect(sent(core.handle(.queued([]), now: 40)) == [])
    }

    @Test func aCommandUnansweredByItsDeadlineIsSettledAsNotAnswered() {
        var core = PhoneCore(retryEvery: 8)
        _ = opened(pi, into: &core)
        let queued = [command("a", .resume, at: 1, deadline: 10)]
        #expect(sent(core.handle(.queued(queued), now: 1)) == ["a"])
        #expect(sent(core.handle(.queued(queued), now: 9)) == ["a"], "resent after retryEvery")
        #expect(core.handle(.queued(queued), now: 10) == [.settle(command: "a", .notAnswered)])
        #expect(core.waiting.isEmpty)
        #expect(core.handle(.queued([]), now: 20) == [])
    }

    @Test func theTicksPaceTheCommandReadsTheBackfillRoundsAndThePartnerReads() {
        var core = PhoneCore()
        #expect(core.handle(.tick(partnerVersion: nil), now: 0) == [.readCommands])
        #expect(core.handle(.tick(partnerVersion: nil), now: 0.1) == [])
        #expect(core.handle(.tick(partnerVersion: nil), now: 0.25) == [.readCommands])
        _ = opened(pi, into: &core, at: 0.3)
        _ = core.handle(.backfillNotAsked(wearable: "pi"), now: 0.3)
        #expect(core.handle(.tick(partnerVersion: 4), now: 1.0) == [.readCommands, .askBackfill(pi), .readPartner(pi)])
        #expect(core.handle(.tick(partnerVersion: 4), now: 1.1) == [], "the version did not move")
        #expect(core.handle(.tick(partnerVersion: 5), now: 1.2) == [.readPartner(pi)])
        let keys = [PhoneInput.PartnerKey(run: "r", seq: 3), .init(run: "q", seq: 1)]
        #expect(core.handle(.partner(pi, keys), now: 1.2) == [.handPartner(pi, indices: [0, 1])])
        #expect(core.handle(.tick(partnerVersion: 6), now: 1.3) == [.readCommands, .readPartner(pi)])
        let newer = [PhoneInput.PartnerKey(run: "r", seq: 3), .init(run: "q", seq: 2)]
        #expect(core.handle(.partner(pi, newer), now: 1.3) == [.handPartner(pi, indices: [1])], "only what is newer")
    }

    @Test func backfillHasOneRequestInFlightAskedAgainWhenLostAndTheNextAsSoonAsAChunkIsCommitted() {
        var core = PhoneCore()
        #expect(opened(pi, into: &core, at: 0).last == .askBackfill(pi))
        #expect(core.handle(.tick(partnerVersion: nil), now: 1).contains(.askBackfill(pi)) == false, "in flight")
        #expect(core.handle(.tick(partnerVersion: nil), now: 10).contains(.askBackfill(pi)), "lost: asked again")
        #expect(core.handle(.chunk(pi), now: 10.5) == [.seen(wearable: "pi"), .commitChunk(pi)])
        #expect(core.handle(.chunkCommitted(pi, rows: 0, done: false), now: 10.5) == [], "an empty chunk waits")
        #expect(core.handle(.chunkCommitted(pi, rows: 50, done: false), now: 11) == [.askBackfill(pi)])
        _ = core.handle(.backfillNotAsked(wearable: "pi"), now: 11)
        let ended = EnvelopeFacts(seq: 1, messageClass: .critical, kind: .sessionEnded)
        _ = core.handle(.envelope(pi, ended), now: 11)
        #expect(
            core.handle(.committed(pi, stored: true), now: 11) == [
                .askBackfill(pi), .ack(pi, through: 1, snapshot: 0),
            ],
            "a session's end asks for its record at once"
        )
        _ = core.handle(.closed(pi), now: 12)
        #expect(core.handle(.tick(partnerVersion: nil), now: 13).contains(.askBackfill(pi)) == false, "gone")
    }
}
