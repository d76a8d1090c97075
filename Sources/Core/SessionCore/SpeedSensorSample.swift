import SpeedSensors
import TrackCore

/// One reading of a footpod or a treadmill as the session keeps it: what it said, which kind of
/// sensor said it, when it arrived and the bytes it came in (nothing lost to decoding).
public struct SpeedSensorSample: Sendable, Equatable {
    public var source: DistanceSource
    public var reading: SpeedSample
    /// Monotonic receive instant.
    public var receivedAt: Double
    public var payload: [UInt8]
    /// The instant on the session's clock (GPS time outdoors when fixes have taught it, the indoor
    /// clock indoors), set when the session logs it: a recovered session replays it as it was.
    public var time: Double?

    public init(
        source: DistanceSource,
        reading: SpeedSample,
        receivedAt: Double,
        payload: [UInt8] = [],
        time: Double? = nil
    ) {
        self.source = source
        self.reading = reading
        self.receivedAt = receivedAt
        self.payload = payload
        self.time = time
    }
}

/// A footpod's or treadmill's comings and goings, and what it said that was no sample.
public enum SpeedSensorEvent: Sendable, Equatable {
    case connected(DistanceSource, address: String)
    case lost(DistanceSource, reason: String)
    /// A notification that could not be read: its bytes and why.
    case malformed(DistanceSource, payload: [UInt8], reason: String)
    /// The treadmill's own start, pause, stop, as it names it.
    case machineStatus(String)
}
