import SessionCore
import TrackCore

/// What the gpsd edge hands the engine, already in the core's own types: the engine knows fixes
/// and receivers, not gpsd's JSON.
public enum GPSInput: Sendable, Equatable {
    case connected
    /// The connection ended or could not be made, and why.
    case disconnected(reason: String)
    /// One report's fix (an epoch may take several), with the monotonic instant its bytes were read.
    case fix(Fix, receivedAt: Double)
    /// The receiver at `path` was plugged in (`activated`) or removed.
    case device(path: String, activated: Bool, receivedAt: Double)
    /// The receivers gpsd has, listed when it is asked to report.
    case receivers([String])
    /// The satellites the receiver sees and uses (sent by the edge only while there is no fix).
    case sky(seen: Int?, used: Int?)
    /// gpsd refused something it was asked.
    case gpsdError(String)
}
