import SpeedSensors

/// What a footpod's or treadmill's link hands the daemon; times are the monotonic clock at receipt.
public struct SpeedSensorLinkEvent: Sendable, Equatable {
    public enum What: Sendable, Equatable {
        /// Subscribed on a fresh connection: samples will flow.
        case connected
        /// A sample, with the bytes it came from.
        case sample(SpeedSample, payload: [UInt8])
        /// A notification that could not be read (truncated, empty): nothing of it is a sample.
        case malformed(payload: [UInt8], reason: String)
        /// The treadmill started, paused, stopped (its own buttons, its safety key).
        case machineStatus(FitnessMachineStatus)
        /// The sensor's feature bits as it reports them, once per connection.
        case feature(UInt32)
        case batteryLevel(Int)
        /// The link ended; it is being made again.
        case lost(reason: String)
        /// The sensor cannot be had now, and why: another program holds it. Asked again with backoff.
        case unavailable(String)
    }

    public var kind: SpeedSensorKind
    /// The sensor's address as `wearbridge scan` prints it.
    public var address: String
    public var what: What
    public var receivedAt: Double

    public init(kind: SpeedSensorKind, address: String, what: What, receivedAt: Double) {
        self.kind = kind
        self.address = address
        self.what = what
        self.receivedAt = receivedAt
    }
}
