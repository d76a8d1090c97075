/// One reading of the wearable's barometer as the session keeps it.
public struct PressureSample: Sendable, Equatable {
    /// kPa, as the kernel's IIO drivers report `in_pressure_input`.
    public var kilopascal: Double
    /// Monotonic receive instant.
    public var receivedAt: Double
    /// The instant on the session's clock (GPS time once fixes have taught it), set when the
    /// session logs it: a recovered session replays it as it was.
    public var time: Double?

    public init(kilopascal: Double, receivedAt: Double, time: Double? = nil) {
        self.kilopascal = kilopascal
        self.receivedAt = receivedAt
        self.time = time
    }
}
