import ATT
import HeartRate

/// What the strap link hands the daemon; times are the monotonic clock at receipt.
public enum StrapLinkEvent: Sendable, Equatable {
    /// A complete Heart Rate Measurement, with the bytes it came from.
    case beat(HeartRateMeasurement, payload: [UInt8], receivedAt: Double)
    /// A notification that is not a measurement (truncated, empty): nothing of it is a beat.
    case malformedBeat(payload: [UInt8], reason: String, receivedAt: Double)
    case strap(StrapEvent, receivedAt: Double)
    /// Notifications are on for a fresh connection; where the strap says it is worn, when it says.
    case subscribed(address: String, receivedAt: Double)
    case bodySensorLocation(String, receivedAt: Double)
    /// "The first strap seen" picked this one: the daemon remembers it for the next start.
    case chosen(BluetoothAddress)
    /// The strap cannot be had now, and why: another program holds it. Asked again with backoff.
    case unavailable(String, receivedAt: Double)
}
