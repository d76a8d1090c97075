import SessionCore
import TrackCore

/// What the gpsd edge hands the engine, already in the core's own types: the engine knows fixes
/// and receivers, not gpsd's JSON.
public enum GPSInput: Sendable, Equatable {
    case connected
    case disconnected
    /// One report's fix (an epoch may take several), with the monotonic instant its bytes were read.
    case fix(Fix, receivedAt: Double)
    /// The receiver at `path` was plugged in (`activated`) or removed.
    case device(path: String, activated: Bool, receivedAt: Double)
}
