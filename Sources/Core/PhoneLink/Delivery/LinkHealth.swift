import SessionCore

/// Live, stale or lost, from the connection and its traffic: the same rule on both ends.
/// A paused session is still live: the wearable sends a heartbeat snapshot while nothing else
/// moves, so silence means the link, never the runner.
public struct LinkHealth: Sendable, Equatable {
    /// No traffic for this long on an open connection is stale (s).
    public let staleAfter: Double
    private var connected = false
    private var lastTraffic: Double?
    public private(set) var state = PhoneLinkState.lost

    public init(staleAfter: Double = 5) {
        self.staleAfter = staleAfter
    }

    /// The connection opened (`true`) or closed (`false`) at `now`; the new state if it changed.
    public mutating func connection(_ open: Bool, at now: Double) -> PhoneLinkState? {
        connected = open
        lastTraffic = open ? now : nil
        return judge(now)
    }

    /// Something arrived from the peer at `now`.
    public mutating func traffic(at now: Double) -> PhoneLinkState? {
        guard connected else { return nil }
        lastTraffic = now
        return judge(now)
    }

    /// Time passed: the new state if it changed.
    public mutating func tick(_ now: Double) -> PhoneLinkState? { judge(now) }

    private mutating func judge(_ now: Double) -> PhoneLinkState? {
        let next: PhoneLinkState
        if !connected {
            next = .lost
        } else if let last = lastTraffic, now - last <= staleAfter {
            next = .live
        } else {
            next = .stale
        }
        guard next != state else { return nil }
        state = next
        return next
    }
}
