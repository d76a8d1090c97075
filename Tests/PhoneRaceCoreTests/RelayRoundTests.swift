import Foundation
import PhoneRaceCore
import RelayContract
import Testing

@Suite struct RelayRoundTests {
    @Test func holdsRacesWithAStartFollowsTheFirstUnderWayAndSettlesTheRest() {
        let listed = [
            relayRun(1, .invited, start: false), relayRun(2, .complete), relayRun(3, .accepted), relayRun(4, .accepted),
        ]
        let round = RelayRound(listed: listed)
        #expect(round.hold.map(\.id) == [listed[1].id, listed[2].id, listed[3].id])
        #expect(round.follow == listed[2].id)
        #expect(round.settle == [listed[0].id.uuidString.lowercased(), listed[1].id.uuidString.lowercased()])
    }

    @Test func nothingUnderWayIsNothingFollowed() {
        let round = RelayRound(listed: [relayRun(1, .cancelled), relayRun(2, .expired)])
        #expect(round.follow == nil)
        #expect(round.settle.count == 2)
        #expect(RelayRound(listed: []) == RelayRound(listed: []))
    }

    @Test func statesAreByTheRelaysLowerCaseRunAndTheFirstListingWins() {
        let states = RelayRound.states([relayRun(7, .accepted), relayRun(7, .cancelled)])
        #expect(states == ["00000000-0000-0000-0000-000000000007": .accepted])
    }

    @Test func onlyTheRateLimitsDefer() {
        #expect(RelayRound.refusal(.snapshotTooSoon) == .later)
        #expect(RelayRound.refusal(.messagesTooFast) == .later)
        for code in ["WB302", "WB504", "WB604", "WB608", "WB611", "42501", "23514"] {
            #expect(RelayRound.refusal(RelayCode(rawValue: code)) == .drop, "\(code)")
        }
    }
}
