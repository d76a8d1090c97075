import PhoneLinkDelivery
import Testing

/// The backfill's pacing and the partner feed, on simulated time: no sockets, no database.
@Suite struct BackfillPacingTests {
    @Test(arguments: [(0.0, false), (9.99, false), (10.0, true), (30.0, true)])
    func aRequestWithoutAnAnswerIsAskedAgainAfterTenSeconds(after: Double, mayAsk: Bool) {
        var pacing = BackfillPacing()
        #expect(pacing.mayAsk("pi", now: 100))
        pacing.asked("pi", at: 100)
        #expect(pacing.mayAsk("pi", now: 100 + after) == mayAsk)
        #expect(pacing.mayAsk("other", now: 100), "one request in flight per wearable, not one in all")
    }

    @Test func aTranscript() {
        var pacing = BackfillPacing()
        var answers: [BackfillPacing.Next] = []
        pacing.asked("pi", at: 0)
        // Rows: committed, the next asked at once.
        answers.append(pacing.received(from: "pi", rows: 500, done: false))
        #expect(pacing.mayAsk("pi", now: 0.1))
        pacing.asked("pi", at: 0.1)
        // An empty chunk of a running session: the request stands until the next round.
        answers.append(pacing.received(from: "pi", rows: 0, done: false))
        #expect(!pacing.mayAsk("pi", now: 5))
        #expect(pacing.mayAsk("pi", now: 10.1))
        // The end, even empty, answers the request.
        pacing.asked("pi", at: 11)
        answers.append(pacing.received(from: "pi", rows: 0, done: true))
        #expect(pacing.mayAsk("pi", now: 11))
        #expect(answers == [.askNow, .waitForRound, .askNow])
        // A request that could not be sent, or a wearable that went: nothing in flight.
        pacing.asked("pi", at: 12)
        pacing.notSent("pi")
        #expect(pacing.mayAsk("pi", now: 12))
        pacing.asked("pi", at: 13)
        pacing.disconnected("pi")
        #expect(pacing.mayAsk("pi", now: 13))
    }
}

@Suite struct PartnerFeedTests {
    @Test func readsOnlyWhenTheVersionMoved() {
        var feed = PartnerFeed()
        let reads = [0, 0, 1, 1, 1, 2].map { feed.needsReading(version: $0) }
        #expect(reads == [true, false, true, false, false, true], "the first look always reads")
    }

    @Test func handsOnEachRunsNewerSnapshotsOnly() {
        var feed = PartnerFeed()
        let rounds: [[(run: String, seq: Int64)]] = [
            [("r1", 3), ("r2", 1)],
            // The same again, then an older one and a newer one, then one seq twice.
            [("r1", 3), ("r2", 1)],
            [("r1", 2), ("r2", 2)],
            [("r1", 4), ("r1", 4)],
            // A seq of zero or below is never news.
            [("r3", 0), ("r3", -5)],
        ]
        let handed = rounds.map { feed.fresh($0) }
        #expect(handed == [[0, 1], [], [1], [0], []])
        // A new connection is a new feed: the newest at once.
        var reconnected = PartnerFeed()
        #expect(reconnected.fresh([("r1", 4)]) == [0])
    }
}
