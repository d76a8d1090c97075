import PhoneLinkDelivery
import SessionCore
import Testing

/// The delivery contract's pure halves: what the wearable sends and marks, what the phone keeps.
@Suite("Phone link: delivery state machines")
struct DeliveryTests {
    @Test func theWelcomeMarksWhatThePhoneHasAndSendsTheRestSnapshotFirst() {
        var window = DeliveryWindow(head: 40, window: 8)
        let actions = window.welcome(mark: 30, snapshot: 25)
        #expect(
            actions == [
                .markDelivered(through: 30, snapshot: 25), .sendSnapshot(after: 25), .send(after: 30, limit: 8),
            ]
        )
    }

    @Test func aMarkBeyondAnythingEverWrittenClosesTheConnection() {
        var window = DeliveryWindow(head: 10)
        guard case .close(let reason)? = window.welcome(mark: 11, snapshot: 0).first else {
            Issue.record("accepted a mark beyond the head")
            return
        }
        #expect(reason.contains("11") && reason.contains("10"))
        #expect(!window.isStreaming)
    }

    @Test func acksAreCumulativeAndOnlyForWhatWasSent() {
        var window = DeliveryWindow(head: 5, window: 2)
        _ = window.welcome(mark: 0, snapshot: 0)
        window.sent(seq: 2, snapshot: false)
        window.sent(seq: 4, snapshot: false)
        #expect(window.unacknowledged == 2)
        // The window is full: more only after an ack.
        #expect(window.outboxGrew(to: 9) == [.sendSnapshot(after: 0)])
        #expect(
            window.ack(through: 2, snapshot: 0) == [.markDelivered(through: 2, snapshot: 0), .send(after: 4, limit: 1)]
        )
        // A repeated ack changes nothing; an ack of something never sent is a violation.
        #expect(window.ack(through: 2, snapshot: 0).isEmpty)
        guard case .close? = window.ack(through: 7, snapshot: 0).first else {
            Issue.record("acked what was never sent")
            return
        }
    }

    @Test func thePhoneKeepsEachMessageOnceAndOnlyTheNewestSnapshot() {
        var mark = InboxMark(mark: 10, snapshot: 12, head: 20)
        #expect(mark.judge(seq: 10, isSnapshot: false) == .duplicate)
        #expect(mark.judge(seq: 11, isSnapshot: false) == .store)
        mark.committed(seq: 11, isSnapshot: false)
        #expect(mark.judge(seq: 11, isSnapshot: false) == .duplicate)
        #expect(mark.judge(seq: 12, isSnapshot: true) == .staleSnapshot)
        #expect(mark.judge(seq: 13, isSnapshot: true) == .store)
        #expect(mark.judge(seq: 0, isSnapshot: false) == .beyondHead(head: 20))
    }

    @Test func healthIsLiveWithTrafficStaleWhenQuietLostWithoutAConnection() {
        var health = LinkHealth(staleAfter: 5)
        #expect(health.state == .lost)
        #expect(health.connection(true, at: 0) == .live)
        #expect(health.tick(4) == nil)
        #expect(health.tick(5.5) == .stale)
        #expect(health.traffic(at: 6) == .live)
        #expect(health.connection(false, at: 7) == .lost)
        #expect(health.traffic(at: 8) == nil, "traffic without a connection is not a link")
    }

    @Test func commandsAreResentEveryPeriodUntilAnsweredAndGivenUpAtTheirDeadline() {
        var pending = PendingCommands(retryEvery: 8)
        pending.add(
            .init(id: "a", kind: .pause, activity: nil, issuedAt: 100, validFor: 60, deadline: 130)
        )
        #expect(pending.due(100).map(\.id) == ["a"])
        #expect(pending.due(104).isEmpty)
        #expect(pending.due(108).map(\.id) == ["a"])
        pending.reconnected(110)
        #expect(pending.due(110).map(\.id) == ["a"], "a new connection gets it at once")
        #expect(pending.expired(129).isEmpty)
        #expect(pending.expired(130).map(\.id) == ["a"])
        #expect(pending.due(131).isEmpty)
        pending.add(
            .init(id: "b", kind: .end, activity: nil, issuedAt: 0, validFor: 60, deadline: 999)
        )
        #expect(pending.answered("b") != nil)
        #expect(pending.due(1).isEmpty)
    }

    @Test func partnerEventsGoOneAtATimeInTheOrderTheyWereQueued() {
        var pending = PendingCommands(retryEvery: 8)
        for id in ["p1", "p2", "p3"] {
            pending.add(.init(id: id, kind: .partnerEvent, activity: nil, issuedAt: 50, validFor: 60, deadline: 999))
        }
        pending.add(.init(id: "s", kind: .pause, activity: nil, issuedAt: 50, validFor: 60, deadline: 999))
        #expect(pending.due(50).map(\.id) == ["p1", "s"], "the first event, and other commands beside it")
        pending.reconnected(51)
        #expect(pending.due(51).map(\.id) == ["p1", "s"], "a reconnection resends the same first one")
        pending.answered("p1")
        #expect(pending.due(52).map(\.id) == ["p2"])
        pending.answered("p2")
        #expect(pending.due(53).map(\.id) == ["p3"])
    }
}
