/// The wall clock a shell stamps instants with (seconds since 1970): `system` in the programs, a
/// set or stepped one in tests. `wearbridge-phone run` makes one and hands it to every shell it
/// starts (the link's loop, the relay pump, the dashboard), so
/// the phone's instants all come from one reading function, and its cores get them as inputs.
public struct WallClock: Sendable {
    private let read: @Sendable () -> Double

    public init(_ read: @escaping @Sendable () -> Double) {
        self.read = read
    }

    public func now() -> Double { read() }

    /// CLOCK_REALTIME: possibly wrong at boot on a board without a real-time clock, which is why a
    /// duration is measured on `MonotonicClock`, never on this.
    public static let system = WallClock { MonotonicClock.system() }
}
