/// What the path of a fix decided beyond a verdict: pauses, splits, outages, resets.
public enum TrackEvent: Sendable, Equatable {
    case autoPaused(at: GPSTime)
    case autoResumed(at: GPSTime, pausedFor: Double)
    case split(Split)
    /// No usable fix since `lastFix`.
    case gpsLost(lastFix: GPSTime)
    case gpsRegained(at: GPSTime, after: Double)
    /// An outage bridged with the credited distance.
    case gapBridged(from: GPSTime, to: GPSTime, distance: Double)
    /// Enough consistent fixes overruled the time line (bogus first time stamp, clock jump).
    case timelineReset(at: GPSTime)
    /// The filter disagreed with the receiver for too long and restarted from its fixes.
    case filterReset(at: GPSTime)
}

/// What the core decided about one fix.
public struct FixOutcome: Sendable, Equatable {
    public enum Verdict: Sendable, Equatable {
        case accepted(TrackPoint)
        case rejected(RejectReason)
    }

    public var verdict: Verdict
    public var events: [TrackEvent]

    public init(verdict: Verdict, events: [TrackEvent] = []) {
        self.verdict = verdict
        self.events = events
    }
}
