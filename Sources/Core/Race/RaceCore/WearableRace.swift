/// One race on the wearable, pure: armed with a countdown to the agreed instant on the monotonic
/// clock, then followed with its tracker, and kept after my own finish so that the partner's news
/// still reaches me. The engine owns one at a time and turns what it returns into session events.
public struct WearableRace: Sendable, Equatable {
    public enum Phase: Sendable, Equatable {
        /// Counting down to the start (monotonic instant in the countdown).
        case armed(Countdown)
        /// Under way in this session.
        case running(session: String)
        /// My session ended; the partner may still be out there.
        case finished(session: String)
    }

    public let order: RaceOrder
    public private(set) var phase: Phase
    public private(set) var tracker: RaceTracker

    /// Armed: counts down from `now` to the monotonic instant `start`.
    public init(order: RaceOrder, start: Double, now: Double, settings: RaceSettings = RaceSettings()) {
        self.order = order
        phase = .armed(Countdown(start: start, now: now))
        tracker = RaceTracker(partner: order.partner, settings: settings)
    }

    /// Following a race already under way in `session` (a restart, or a phone that reconnected).
    public init(
        following order: RaceOrder,
        session: String,
        leaderIsMe: Bool? = nil,
        settings: RaceSettings = RaceSettings()
    ) {
        self.order = order
        phase = .running(session: session)
        tracker = RaceTracker(partner: order.partner, settings: settings)
        tracker.remember(leaderIsMe: leaderIsMe)
    }

    public var isArmed: Bool { if case .armed = phase { true } else { false } }

    /// The session that runs the race, once it started.
    public var session: String? {
        switch phase {
        case .armed: nil
        case .running(let session), .finished(let session): session
        }
    }

    /// The countdown's calls due by `now`; after "go" the caller starts the session and calls `began`.
    public mutating func countdown(now: Double) -> [Countdown.Call] {
        guard case .armed(var countdown) = phase else { return [] }
        let calls = countdown.tick(now: now)
        phase = .armed(countdown)
        return calls
    }

    /// The race clock's estimate of the start instant moved: the countdown follows it.
    public mutating func retarget(start: Double) {
        guard case .armed(var countdown) = phase else { return }
        countdown.retarget(start: start)
        phase = .armed(countdown)
    }

    /// The monotonic instant the next countdown call is due, while armed (the shell wakes the
    /// engine then, so that "go" is not a tick late).
    public var nextCallAt: Double? {
        guard case .armed(let countdown) = phase else { return nil }
        return countdown.nextCallAt
    }

    public mutating func began(session: String) {
        phase = .running(session: session)
    }

    public mutating func ended() {
        if case .running(let session) = phase { phase = .finished(session: session) }
    }

    /// My progress: distance at my GPS time; the elapsed time is counted from the agreed start.
    public mutating func own(gpsTime: Double, distance: Double, now: Double) -> [RaceNews] {
        guard case .running = phase else { return [] }
        return tracker.own(elapsedSeconds: gpsTime - order.startAt, distanceMetres: distance, now: now)
    }

    public mutating func partner(_ snapshot: PartnerSnapshot) -> [RaceNews] {
        if case .armed = phase { return [] }
        return tracker.partner(snapshot)
    }

    public mutating func partner(event: PartnerEvent, sequence: Int64) -> [RaceNews] {
        tracker.partner(event: event, sequence: sequence)
    }

    public mutating func tick(now: Double) -> [RaceNews] {
        guard case .running = phase else { return [] }
        return tracker.tick(now: now)
    }
}
