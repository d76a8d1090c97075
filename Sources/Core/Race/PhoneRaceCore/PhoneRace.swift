import RelayContract

/// A race as the phone holds it: its row in the phone's race store, and the countdown order handed
/// to the wearable for it.
public struct PhoneRace: Sendable, Equatable {
    /// The run's id as the relay spells it (lower-case UUID).
    public var run: String
    /// The relay's state, as last read.
    public var state: RelayRun.State
    /// The agreed start instant (Unix s, the relay's clock).
    public var startAt: Double
    /// The wearable started the race's session.
    public var hasSession: Bool
    /// The newest order handed for it; nil before the first.
    public var order: HandedOrder?

    public init(run: String, state: RelayRun.State, startAt: Double, hasSession: Bool, order: HandedOrder?) {
        self.run = run
        self.state = state
        self.startAt = startAt
        self.hasSession = hasSession
        self.order = order
    }
}
