import RelayContract

/// A race as the phone holds it: its row in the phone's race store, the countdown order handed
/// to the wearable for it, and where the routes shared after it stand.
public struct PhoneRace: Sendable, Equatable {
    /// Where this runner's route of a race stands on the phone.
    public enum OwnRoute: Sendable, Equatable {
        /// No session ran it, or its record is not yet all on the phone.
        case notReady
        /// Its record is complete and the route is not shared yet.
        case ready
        /// Shared (the relay has it), or refused for good (kept with the reason).
        case settled
    }

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
    public var ownRoute: OwnRoute
    /// The phone holds the partner's route of it.
    public var partnerRouteHeld: Bool

    public init(
        run: String,
        state: RelayRun.State,
        startAt: Double,
        hasSession: Bool,
        order: HandedOrder?,
        ownRoute: OwnRoute = .notReady,
        partnerRouteHeld: Bool = false
    ) {
        self.run = run
        self.state = state
        self.startAt = startAt
        self.hasSession = hasSession
        self.order = order
        self.ownRoute = ownRoute
        self.partnerRouteHeld = partnerRouteHeld
    }
}
