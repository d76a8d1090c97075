import Foundation

/// What the relay itself decided about a run (`relay.events`), in the order it decided it. A phone
/// passes each on once, keeping the highest id it has passed.
public struct RelayEvent: Sendable, Equatable, Codable {
    public enum Kind: String, Sendable, Codable {
        case invited, accepted, declined, cancelled, expired, started, finished, abandoned, result
    }

    public var id: Int64
    public var runID: UUID
    public var kind: Kind
    public var runner: String?
    /// The event's details as the relay wrote them (JSON text).
    public var body: String
    public var at: Date

    public init(id: Int64, runID: UUID, kind: Kind, runner: String?, body: String, at: Date) {
        self.id = id
        self.runID = runID
        self.kind = kind
        self.runner = runner
        self.body = body
        self.at = at
    }
}
