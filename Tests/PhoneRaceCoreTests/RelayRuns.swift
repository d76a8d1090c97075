import Foundation
import RelayContract

/// Run `id` as the relay lists it: ann against bob, in `state`, starting at 100 s (or not yet).
func relayRun(_ id: Int, _ state: RelayRun.State, start: Bool = true) -> RelayRun {
    RelayRun(
        id: UUID(uuidString: runKey(id))!,
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

/// Run `id`'s id as the relay spells it.
func runKey(_ id: Int) -> String { String(format: "00000000-0000-0000-0000-%012d", id) }
