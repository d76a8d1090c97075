import TrackCore

/// A session event with its context, as every sink hears it (and the log stores it, in a session).
public struct Announcement: Sendable, Equatable {
    public var event: SessionEvent
    /// The session it belongs to; nil when none is open (a strap found before the start, say).
    public var sessionID: String?
    /// The GPS time it refers to, when known.
    public var time: GPSTime?
    /// Monotonic instant of what caused it, when something did.
    public var receivedAt: Double?

    public init(_ event: SessionEvent, sessionID: String?, time: GPSTime? = nil, receivedAt: Double? = nil) {
        self.event = event
        self.sessionID = sessionID
        self.time = time
        self.receivedAt = receivedAt
    }
}
