/// A SQLSTATE the relay answers with: its own rules' codes (`WBnnn`, raised by `relay.fail` in
/// `relay/migrations/`) and PostgreSQL's. Open, as SQLSTATEs are: the codes the phone acts on are
/// named here, any other is carried as it came.
public struct RelayCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }

    public var description: String { rawValue }

    /// The enrolment found no such runner or a name it cannot take.
    public static let enrolment = RelayCode(rawValue: "WB001")
    /// No invite or race of the caller's that can be cancelled (it is over, or was never theirs).
    public static let notCancellable = RelayCode(rawValue: "WB302")
    /// Snapshots come at most one per the relay's interval.
    public static let snapshotTooSoon = RelayCode(rawValue: "WB606")
    /// Notices and critical messages are over their token bucket.
    public static let messagesTooFast = RelayCode(rawValue: "WB609")
    /// Row-level security's refusal (PostgreSQL's `insufficient_privilege`).
    public static let insufficientPrivilege = RelayCode(rawValue: "42501")

    /// A rate limit: the row is sent again on a later tick, not refused for good.
    public var defers: Bool { self == .snapshotTooSoon || self == .messagesTooFast }
}
