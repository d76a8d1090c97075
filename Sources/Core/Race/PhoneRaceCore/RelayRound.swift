import Foundation
import RelayContract

/// The pump's decisions for one round with the relay, from what the relay listed: which races the
/// phone holds (and their new state), which ended lately and are read once more for the relay's
/// verdict, and which one is under way and followed twice a second. Pure.
public struct RelayRound: Sendable, Equatable {
    /// Races with an agreed start, to hold (or update) in the phone's race store.
    public var hold: [RelayRun]
    /// Runs the relay still lists that are not under way: what it decided is read once more.
    public var settle: Set<String>
    /// The race under way, followed until the relay says it is over.
    public var follow: UUID?

    public init(listed: [RelayRun]) {
        hold = listed.filter { $0.startAt != nil }
        settle = Set(listed.filter { $0.state != .accepted }.map { $0.id.uuidString.lowercased() })
        follow = listed.first { $0.state == .accepted }?.id
    }

    /// The relay's states by run, for `RaceOrders.decide` (the first listing of a run wins).
    public static func states(_ listed: [RelayRun]) -> [String: RelayRun.State] {
        Dictionary(listed.map { ($0.id.uuidString.lowercased(), $0.state) }) { first, _ in first }
    }

    /// What a refusal of a queued row means: a rate limit defers the rest of the race's queue to the
    /// next tick; anything else refuses that row for good (it is kept with the refusal and dropped).
    public enum Refusal: Sendable, Equatable {
        case later
        case drop
    }

    public static func refusal(_ code: RelayCode) -> Refusal { code.defers ? .later : .drop }
}
