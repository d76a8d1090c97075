/// When the phone asks a wearable for the next chunk of a session's record: one request in flight
/// per wearable, asked again if no chunk came within `askAgainAfter` (a request lost with its
/// connection), the next asked as soon as a chunk is committed, but not after an empty chunk of a
/// session still running (the next round asks, so a followed session is not polled in a loop).
public struct BackfillPacing: Sendable, Equatable {
    /// Seconds after which a request without an answer is taken as lost.
    public static let askAgainAfter = 10.0

    /// What to do once a chunk is committed.
    public enum Next: Sendable, Equatable {
        /// Ask for the next chunk now.
        case askNow
        /// Nothing new yet: the next round (a reconnection, a new message) asks.
        case waitForRound
    }

    /// When each wearable's request in flight was sent.
    private var asked: [String: Double] = [:]

    public init() {}

    /// Whether a request may go to `wearable` at `now`: none in flight, or the last one lost.
    public func mayAsk(_ wearable: String, now: Double) -> Bool {
        guard let sent = asked[wearable] else { return true }
        return now - sent >= Self.askAgainAfter
    }

    /// A request went to `wearable` at `now`.
    public mutating func asked(_ wearable: String, at now: Double) {
        asked[wearable] = now
    }

    /// The request could not be sent (the wearable was gone): nothing is in flight.
    public mutating func notSent(_ wearable: String) {
        asked[wearable] = nil
    }

    /// A chunk from `wearable` was committed: with rows or the session's end, the request is
    /// answered and the next is asked for at once; an empty chunk of a running session leaves the
    /// request standing until the next round.
    public mutating func received(from wearable: String, rows: Int, done: Bool) -> Next {
        guard rows > 0 || done else { return .waitForRound }
        asked[wearable] = nil
        return .askNow
    }

    /// The wearable went away: whatever was asked of it is forgotten.
    public mutating func disconnected(_ wearable: String) {
        asked[wearable] = nil
    }
}
