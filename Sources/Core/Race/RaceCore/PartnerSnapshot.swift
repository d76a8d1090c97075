/// The partner's figures as their wearable reported them, with our clock's time of arrival.
public struct PartnerSnapshot: Sendable, Equatable {
    /// Their sequence number on the relay: an older or repeated one changes nothing.
    public var sequence: Int64
    public var distanceMetres: Double
    /// Seconds since the race's common start instant, by their clock.
    public var elapsedSeconds: Double
    public var paused: Bool
    /// When it arrived, on our monotonic clock (s).
    public var receivedAt: Double

    public init(sequence: Int64, distanceMetres: Double, elapsedSeconds: Double, paused: Bool, receivedAt: Double) {
        self.sequence = sequence
        self.distanceMetres = distanceMetres
        self.elapsedSeconds = elapsedSeconds
        self.paused = paused
        self.receivedAt = receivedAt
    }
}

/// What the partner did, from their critical events: each is passed on once, in order.
public enum PartnerEvent: Sendable, Equatable {
    case paused
    case resumed
    case split(number: Int, seconds: Double)
    case finished(elapsedSeconds: Double, distanceMetres: Double)
    case abandoned

    /// What the event tells the runner, by itself.
    public var news: RaceNews {
        switch self {
        case .paused: .partnerPaused
        case .resumed: .partnerResumed
        case .split(let number, let seconds): .partnerSplit(number: number, seconds: seconds)
        case .finished(let elapsed, let distance): .partnerFinished(elapsedSeconds: elapsed, distanceMetres: distance)
        case .abandoned: .partnerAbandoned
        }
    }
}
