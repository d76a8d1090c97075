import SessionCore

/// What the phone link's shell tells the engine: its state, and the outbox as it stands.
public struct PhoneLinkReport: Sendable, Equatable {
    public var state: PhoneLinkState
    /// Messages not yet acknowledged by the phone (snapshots included).
    public var outboxDepth: Int
    /// Wall-clock creation time of the oldest unacknowledged critical message.
    public var oldestCriticalAt: Double?

    public init(state: PhoneLinkState, outboxDepth: Int, oldestCriticalAt: Double?) {
        self.state = state
        self.outboxDepth = outboxDepth
        self.oldestCriticalAt = oldestCriticalAt
    }
}
