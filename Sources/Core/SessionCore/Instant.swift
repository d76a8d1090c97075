/// The engine's "now": time is an input, never read by the core.
public struct Instant: Sendable, Equatable {
    /// CLOCK_MONOTONIC seconds: durations, receive instants, deadlines.
    public var monotonic: Double
    /// The wall clock (seconds since 1970), possibly wrong at boot on a board without RTC: only
    /// a start anchor of last resort.
    public var system: Double

    public init(monotonic: Double, system: Double) {
        self.monotonic = monotonic
        self.system = system
    }
}
