import GPSD
@_exported import LinkTiming

/// What the gpsd connection reports to the daemon's engine.
public enum GPSDLinkEvent: Sendable {
    case connected(endpoint: String)
    case disconnected(reason: String)
    /// One decoded report and the monotonic instant its bytes were read.
    case message(GPSDMessage, receivedAt: Double)
    /// A line that is not gpsd JSON: counted and logged by the engine.
    case malformed(reason: String, line: Int)
}
