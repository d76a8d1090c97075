/// What a live gpsd connection reports: a value, so that the session core takes it without sockets.
public enum GPSDLinkEvent: Sendable {
    case connected(endpoint: String)
    case disconnected(reason: String)
    /// One decoded report and the monotonic instant its bytes were read.
    case message(GPSDMessage, receivedAt: Double)
    /// A line that is not gpsd JSON: counted and logged by the engine.
    case malformed(reason: String, line: Int)
}
