import SessionCore

/// The link strip every page shows, judged on the server's clock: the page never compares its own
/// clock with the wearable's or the phone's.
public struct LinkStrip: Sendable, Equatable {
    public enum State: String, Sendable, Equatable, CaseIterable, Encodable {
        /// Traffic within `staleAfter` and a session that is moving (or none).
        case live
        /// Connected, but nothing heard for longer than `staleAfter`.
        case stale
        /// No connection, or silence past `PhoneLinkState.lostAfterStale` times `staleAfter`.
        case lost
        /// Live, and the session is paused (by a command or the core's auto-pause).
        case paused
    }

    public var state: State
    /// Seconds since the phone last heard the wearable; nil when it never has.
    public var lastSeenAge: Double?
    /// Why commands are refused now; nil when they may be sent.
    public var commandsRefusedBecause: String?

    /// `connected`: a stream is open; `lastSeenAge`: seconds since any traffic (server clock);
    /// `paused`: the newest snapshot says so. Live, stale and lost are `PhoneLinkState.judged`.
    public init(connected: Bool, lastSeenAge: Double?, paused: Bool, staleAfter: Double) {
        self.lastSeenAge = lastSeenAge
        switch PhoneLinkState.judged(connected: connected, silence: lastSeenAge, staleAfter: staleAfter) {
        case .lost:
            state = .lost
            commandsRefusedBecause =
                lastSeenAge.map { "the wearable is not connected (last heard \(Int($0.rounded())) s ago)" }
                ?? "the wearable has never connected"
        case .stale:
            state = .stale
            commandsRefusedBecause = "the link is stale: nothing heard for \(Int((lastSeenAge ?? 0).rounded())) s"
        case .live:
            state = paused ? .paused : .live
            commandsRefusedBecause = nil
        }
    }
}
