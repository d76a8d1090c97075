import PhoneRaceCore
import RelayContract
import Testing

/// The countdown's decisions from tables, on simulated time: no database, no relay, no clock.
@Suite struct RaceOrdersTests {
    static let start = 10_000.0

    func race(
        _ state: RelayRun.State = .accepted,
        order: HandedOrder? = nil,
        session: Bool = false,
        run: String = "r1"
    ) -> PhoneRace {
        PhoneRace(run: run, state: state, startAt: Self.start, hasSession: session, order: order)
    }

    func decide(_ race: PhoneRace, at now: Double, relay: RelayRun.State? = .accepted) -> [RaceOrders.Action] {
        RaceOrders.decide([race], relay: relay.map { [race.run: $0] } ?? [:], now: now)
    }

    @Test(arguments: [
        // Seconds before the start, and whether the first order goes now.
        (60.0, false), (35.01, false), (35.0, true), (20.0, true), (2.01, true), (2.0, false), (0.0, false),
        (-5.0, false),
    ])
    func theFirstOrderGoesWithinTheLeadAndNotAtTheLastMoment(before: Double, orders: Bool) {
        #expect(decide(race(), at: Self.start - before) == (orders ? [.order(run: "r1")] : []))
    }

    @Test func theOrderGoesOnceWhateverTheRelaySays() {
        let waiting = HandedOrder(taken: false, issuedAt: Self.start - 30, answer: .waiting)
        #expect(decide(race(order: waiting), at: Self.start - 20).isEmpty)
        #expect(decide(race(order: waiting), at: Self.start - 20, relay: nil).isEmpty)
        let took = HandedOrder(taken: true, issuedAt: Self.start - 30, answer: .took)
        #expect(decide(race(order: took), at: Self.start - 20).isEmpty)
    }

    @Test func aWearableNotReadyIsHandedItAgainEveryTwoSecondsUntilTheLastHanding() {
        let notReady = HandedOrder(taken: false, issuedAt: Self.start - 30, answer: .notReady("no fix yet"))
        // Asked again no more often than every 2 s.
        #expect(decide(race(order: notReady), at: Self.start - 29).isEmpty)
        #expect(decide(race(order: notReady), at: Self.start - 28).isEmpty)
        #expect(decide(race(order: notReady), at: Self.start - 27.9) == [.handAgain(run: "r1")])
        // The last handing is 3 s before the start; then a wearable that never took it is given up.
        let late = HandedOrder(taken: false, issuedAt: Self.start - 10, answer: .notReady("no fix yet"))
        #expect(decide(race(order: late), at: Self.start - 3.01) == [.handAgain(run: "r1")])
        #expect(
            decide(race(order: late), at: Self.start - 3) == [.cancelAtRelay(run: "r1", reason: "no fix yet")]
        )
    }

    @Test func aWearableThatTookItAndRestartedIsNeverGivenUp() {
        let again = HandedOrder(taken: true, issuedAt: Self.start - 10, answer: .cannot("a session is under way"))
        #expect(decide(race(order: again), at: Self.start - 5) == [.handAgain(run: "r1")])
        #expect(decide(race(order: again), at: Self.start - 1).isEmpty)
        #expect(decide(race(order: again), at: Self.start + 30).isEmpty)
    }

    @Test func aWearableThatCannotTakeItCancelsTheRaceForBoth() {
        let cannot = HandedOrder(taken: false, issuedAt: Self.start - 30, answer: .cannot("a session is under way"))
        #expect(
            decide(race(order: cannot), at: Self.start - 29)
                == [.cancelAtRelay(run: "r1", reason: "a session is under way")]
        )
    }

    @Test(arguments: [RelayRun.State.cancelled, .complete, .expired, .invited])
    func nothingIsCancelledOrHandedOnceTheRelaySaysOtherwise(relay: RelayRun.State) {
        let cannot = HandedOrder(taken: false, issuedAt: Self.start - 30, answer: .cannot("busy"))
        let notReady = HandedOrder(taken: false, issuedAt: Self.start - 30, answer: .notReady("no fix"))
        #expect(decide(race(order: cannot), at: Self.start - 20, relay: relay).isEmpty)
        #expect(decide(race(order: notReady), at: Self.start - 20, relay: relay).isEmpty)
        // A run the relay no longer lists is not cancelled on its behalf either.
        #expect(decide(race(order: cannot), at: Self.start - 20, relay: nil).isEmpty)
    }

    @Test func anUnansweredOrderThatLapsedIsLeftAlone() {
        let lapsed = HandedOrder(taken: false, issuedAt: Self.start - 30, answer: .lapsed)
        #expect(decide(race(order: lapsed), at: Self.start + 1).isEmpty)
        #expect(decide(race(.cancelled, order: lapsed), at: Self.start - 10).isEmpty)
    }

    @Test(arguments: [RelayRun.State.cancelled, .declined, .expired])
    func aCountdownThatMayBeArmedIsDisarmedWhenTheRaceIsCalledOff(state: RelayRun.State) {
        for answer in [HandedOrder.Answer.waiting, .took] {
            let order = HandedOrder(taken: answer == .took, issuedAt: Self.start - 30, answer: answer)
            #expect(decide(race(state, order: order), at: Self.start - 10) == [.disarm(run: "r1")])
            // Up to a minute after the start; later there is nothing left to disarm.
            #expect(decide(race(state, order: order), at: Self.start + 59) == [.disarm(run: "r1")])
            #expect(decide(race(state, order: order), at: Self.start + 60).isEmpty)
        }
        // Never armed: nothing to disarm.
        #expect(decide(race(state), at: Self.start - 10).isEmpty)
        let refused = HandedOrder(taken: false, issuedAt: Self.start - 30, answer: .cannot("busy"))
        #expect(decide(race(state, order: refused), at: Self.start - 10).isEmpty)
    }

    @Test func aRaceWhoseSessionStartedNeedsNoOrders() {
        let cannot = HandedOrder(taken: false, issuedAt: Self.start - 30, answer: .cannot("busy"))
        #expect(decide(race(session: true), at: Self.start - 20).isEmpty)
        #expect(decide(race(.cancelled, order: cannot, session: true), at: Self.start - 20).isEmpty)
        #expect(decide(race(.complete, session: true), at: Self.start - 20).isEmpty)
    }

    @Test func eachRaceIsDecidedOnItsOwn() {
        let races = [
            race(run: "a"),
            race(.cancelled, order: HandedOrder(taken: true, issuedAt: 0, answer: .took), run: "b"),
            race(.complete, run: "c"),
        ]
        let relay: [String: RelayRun.State] = ["a": .accepted, "b": .cancelled, "c": .complete]
        #expect(
            RaceOrders.decide(races, relay: relay, now: Self.start - 30) == [.order(run: "a"), .disarm(run: "b")]
        )
    }
}
