import Foundation
import PhoneRaceCore
import RelayContract
import Testing

@Suite struct RelayRoundTests {
    func run(_ id: Int, _ state: RelayRun.State, start: Bool = true) -> RelayRun {
        RelayRun(
            id: UUID(uuidString: String(format: "00000000-0000-0000-0000-%012d", id))!,
            inviter: "ann",
            invitee: "bob",
            partner: "bob",
            activity: "run",
            distanceMetres: 5000,
            leadSeconds: 90,
            state: state,
            invitedAt: Date(timeIntervalSince1970: 0),
            expiresAt: Date(timeIntervalSince1970: 600),
            startAt: start ? Date(timeIntervalSince1970: 100) : nil,
            endedAt: nil,
            winner: nil,
            reason: nil,
            rematchOf: nil
        )
    }

    @Test func holdsRacesWithAStartFollowsTheFirstUnderWayAndSettlesTheRest() {
        let listed = [run(1, .invited, start: false), run(2, .complete), run(3, .accepted), run(4, .accepted)]
        let round = RelayRound(listed: listed)
        #expect(round.hold.map(\.id) == [listed[1].id, listed[2].id, listed[3].id])
        #expect(round.follow == listed[2].id)
        #expect(round.settle == [listed[0].id.uuidString.lowercased(), listed[1].id.uuidString.lowercased()])
    }

    @Test func nothingUnderWayIsNothingFollowed() {
        let round = RelayRound(listed: [run(1, .cancelled), run(2, .expired)])
        #expect(round.follow == nil)
        #expect(round.settle.count == 2)
        #expect(RelayRound(listed: []) == RelayRound(listed: []))
    }

    @Test func statesAreByTheRelaysLowerCaseRunAndTheFirstListingWins() {
        let states = RelayRound.states([run(7, .accepted), run(7, .cancelled)])
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
