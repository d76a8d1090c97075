import Foundation

/// A run as a runner reads it from `relay.my_runs`: an invite, a race under way, or its result.
/// Times are the database's.
public struct RelayRun: Sendable, Equatable, Codable {
    /// Where a run is; `expired` is read as soon as an invite's time is up, swept or not.
    public enum State: String, Sendable, Codable, CaseIterable {
        case invited, accepted, complete, abandoned, declined, cancelled, expired

        /// Invites still answerable and races not yet decided.
        public var isOpen: Bool { self == .invited || self == .accepted }
    }

    public var id: UUID
    public var inviter: String
    public var invitee: String
    /// The other runner, seen from whoever reads the row.
    public var partner: String
    public var activity: String
    public var distanceMetres: Double?
    public var leadSeconds: Double
    public var state: State
    public var invitedAt: Date
    public var expiresAt: Date
    public var startAt: Date?
    public var endedAt: Date?
    public var winner: String?
    public var reason: String?
    public var rematchOf: UUID?

    public init(
        id: UUID,
        inviter: String,
        invitee: String,
        partner: String,
        activity: String,
        distanceMetres: Double?,
        leadSeconds: Double,
        state: State,
        invitedAt: Date,
        expiresAt: Date,
        startAt: Date?,
        endedAt: Date?,
        winner: String?,
        reason: String?,
        rematchOf: UUID?
    ) {
        self.id = id
        self.inviter = inviter
        self.invitee = invitee
        self.partner = partner
        self.activity = activity
        self.distanceMetres = distanceMetres
        self.leadSeconds = leadSeconds
        self.state = state
        self.invitedAt = invitedAt
        self.expiresAt = expiresAt
        self.startAt = startAt
        self.endedAt = endedAt
        self.winner = winner
        self.reason = reason
        self.rematchOf = rematchOf
    }
}
