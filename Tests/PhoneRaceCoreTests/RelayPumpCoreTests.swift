import Foundation
import PhoneRaceCore
import RelayContract
import Testing

/// The relay pump's schedule as `SessionEngine` is tested: what the relay lists, the races held and
/// simulated time in, actions compared; no relay, no store, no clock.
@Suite struct RelayPumpCoreTests {
    func held(_ id: Int, _ state: RelayRun.State, order: HandedOrder? = nil, session: Bool = false) -> PhoneRace {
        PhoneRace(run: runKey(id), state: state, startAt: 100, hasSession: session, order: order)
    }

    @Test func withNoRaceUnderWayARoundHoldsPushesSettlesAndComesAgainTwoSecondsLater() {
        var core = RelayPumpCore()
        #expect(core.handle(.tick, now: 10) == [.list])
        let listed = [relayRun(1, .invited, start: false), relayRun(2, .complete)]
        #expect(core.handle(.listed(listed), now: 10) == [.hold(listed[1]), .readHeld])
        #expect(
            core.handle(.held([held(2, .complete)]), now: 10)
                == [.push(run: runKey(2)), .pull(run: runKey(2)), .wake(at: 12)],
            "what is left to send goes, and what the relay decided is read once more"
        )
        #expect(core.following == nil)
        #expect(core.handle(.tick, now: 12) == [.list])
    }

    @Test func aRaceUnderWayIsFollowedTwiceASecondAndListedAgainEveryFiveSecondsUntilItIsOver() {
        var core = RelayPumpCore()
        _ = core.handle(.tick, now: 60)
        let under = relayRun(3, .accepted)
        #expect(core.handle(.listed([under]), now: 60) == [.hold(under), .readHeld])
        #expect(
            core.handle(.held([held(3, .accepted)]), now: 70)
                == [.order(.order(run: runKey(3))), .push(run: runKey(3)), .wake(at: 70)],
            "30 s before its start the countdown goes to the wearable; then the race is followed at once"
        )
        #expect(core.following == runKey(3))
        #expect(core.handle(.tick, now: 70) == [.pull(run: runKey(3)), .push(run: runKey(3)), .readHeld])
        let taken = HandedOrder(taken: true, issuedAt: 70, answer: .took)
        #expect(core.handle(.held([held(3, .accepted, order: taken)]), now: 70.1) == [.wake(at: 70.6)])
        #expect(core.handle(.tick, now: 70.6) == [.pull(run: runKey(3)), .push(run: runKey(3)), .readHeld])
        _ = core.handle(.held([held(3, .accepted, order: taken)]), now: 70.6)
        #expect(core.handle(.tick, now: 75.1) == [.list], "listed again after five seconds")
        #expect(core.handle(.listed([under]), now: 75.1) == [.wake(at: 75.6)], "still under way: followed on")
        #expect(core.handle(.tick, now: 75.6) == [.pull(run: runKey(3)), .push(run: runKey(3)), .readHeld])
        _ = core.handle(.held([held(3, .accepted, order: taken)]), now: 75.6)
        let over = relayRun(3, .complete)
        #expect(core.handle(.tick, now: 80.2) == [.list])
        #expect(core.handle(.listed([over]), now: 80.2) == [.hold(over), .readHeld], "over: a round")
        #expect(core.following == nil)
        #expect(
            core.handle(.held([held(3, .complete, session: true)]), now: 80.2)
                == [.push(run: runKey(3)), .pull(run: runKey(3)), .fetchRoute(run: runKey(3)), .wake(at: 82.2)],
            "the relay's verdict read once more, and the partner's route looked for"
        )
    }

    @Test func aFollowedRaceThatLeftTheStoreEndsTheFollowingAndANewRoundComesAtOnce() {
        var core = RelayPumpCore()
        _ = core.handle(.tick, now: 0)
        _ = core.handle(.listed([relayRun(4, .accepted)]), now: 0)
        _ = core.handle(.held([held(4, .accepted, session: true)]), now: 0)
        #expect(core.handle(.tick, now: 0.5) == [.pull(run: runKey(4)), .push(run: runKey(4)), .readHeld])
        #expect(core.handle(.held([]), now: 0.5) == [.wake(at: 0.5)])
        #expect(core.following == nil)
        #expect(core.handle(.tick, now: 0.5) == [.list])
    }

    @Test func ordersAreDecidedOnTheRelaysNewestListing() {
        var core = RelayPumpCore()
        let notReady = HandedOrder(taken: false, issuedAt: 90, answer: .notReady("no GPS fix yet"))
        _ = core.handle(.tick, now: 98)
        _ = core.handle(.listed([relayRun(5, .accepted)]), now: 98)
        #expect(
            core.handle(.held([held(5, .accepted, order: notReady)]), now: 98).first
                == .order(.cancelAtRelay(run: runKey(5), reason: "no GPS fix yet")),
            "not ready 2 s before the start: cancelled for both"
        )
        var other = RelayPumpCore()
        _ = other.handle(.tick, now: 98)
        _ = other.handle(.listed([relayRun(5, .cancelled)]), now: 98)
        #expect(
            other.handle(.held([held(5, .accepted, order: notReady)]), now: 98)
                == [.push(run: runKey(5)), .pull(run: runKey(5)), .wake(at: 100)],
            "the relay has it cancelled already: nothing to cancel on its behalf"
        )
    }

    @Test func onceARaceIsOverItsRouteIsSharedWhenReadyAndThePartnersLookedForUntilItComes() {
        var core = RelayPumpCore()
        func round(_ race: PhoneRace, at now: Double) -> [RelayPumpCore.Action] {
            _ = core.handle(.tick, now: now)
            _ = core.handle(.listed([relayRun(6, .complete)]), now: now)
            return core.handle(.held([race]), now: now)
        }
        var race = PhoneRace(run: runKey(6), state: .complete, startAt: 100, hasSession: true, order: nil)
        #expect(
            round(race, at: 400) == [
                .push(run: runKey(6)), .pull(run: runKey(6)), .fetchRoute(run: runKey(6)),
                .wake(at: 402),
            ],
            "the record is not all on the phone yet: only the partner's route is looked for"
        )
        race.ownRoute = .ready
        #expect(!round(race, at: 402).contains(.shareRoute(run: runKey(6))), "at most every 10 s")
        #expect(round(race, at: 410).contains(.shareRoute(run: runKey(6))))
        race.ownRoute = .settled
        race.partnerRouteHeld = true
        #expect(
            round(race, at: 420) == [.push(run: runKey(6)), .pull(run: runKey(6)), .wake(at: 422)],
            "both routes held: nothing more"
        )
        race.partnerRouteHeld = false
        #expect(round(race, at: 430).contains(.fetchRoute(run: runKey(6))))
        #expect(
            !round(race, at: 100 + RelayPumpCore.routeWindow).contains(.fetchRoute(run: runKey(6))),
            "past the window the partner's route is no longer looked for"
        )
    }

    @Test func aRaceUnderWayOrOneThisWearableNeverRanHasNoRouteWork() {
        var core = RelayPumpCore()
        _ = core.handle(.tick, now: 200)
        _ = core.handle(.listed([relayRun(7, .cancelled)]), now: 200)
        let never = PhoneRace(run: runKey(7), state: .cancelled, startAt: 100, hasSession: false, order: nil)
        #expect(
            core.handle(.held([never]), now: 200) == [.push(run: runKey(7)), .pull(run: runKey(7)), .wake(at: 202)]
        )
        var other = RelayPumpCore()
        _ = other.handle(.tick, now: 200)
        _ = other.handle(.listed([relayRun(8, .accepted)]), now: 200)
        let under = PhoneRace(
            run: runKey(8),
            state: .accepted,
            startAt: 100,
            hasSession: true,
            order: nil,
            ownRoute: .ready
        )
        #expect(!other.handle(.held([under]), now: 200).contains(.shareRoute(run: runKey(8))))
    }
}
