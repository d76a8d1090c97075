import SessionCore

/// What a cue says, with its figures typed: the catalog turns it into words at the last moment,
/// in the wearer's language and units.
public enum CueMessage: Sendable, Equatable {
    case sessionStarted
    /// `climbed`: the elevation gain (m), when the session had altitudes; `energy`: kcal spent,
    /// when the session costed it; `steps`: what an IMU counted, when one did.
    case sessionEnded(
        distance: Double,
        moving: Double,
        averagePace: Double?,
        averageHeartRate: Double?,
        climbed: Double? = nil,
        energy: Double? = nil,
        steps: Int? = nil
    )
    case paused
    case resumed
    case autoPaused
    case autoResumed
    /// The split as the data log holds it: number, duration (s), pace (s/km), average heart rate.
    case split(index: Int, duration: Double, pace: Double, heartRate: Double?)
    case summary([SummaryFigure])
    case zone(ZoneCue)
    /// `again`: it is still lost (the reminder).
    case gpsLost(again: Bool)
    case gpsRegained
    case strapLost
    case strapRegained
    case contactLost
    case batteryLow(percent: Int)
    case linkLost
    case linkBack
    /// A race's countdown: seconds to the start; 0 is "go".
    case countdown(Int)
    /// The lead changed: `gap` metres, positive when I now lead.
    case raceLead(partner: String, gap: Double)
    case partner(PartnerCue)
    case raceCancelled
    /// Following a course: the session's own course event, said as it is.
    case course(CourseEvent)
    case say(String)

    public var kind: CueKind {
        switch self {
        case .sessionStarted: .sessionStarted
        case .sessionEnded: .sessionEnded
        case .paused: .paused
        case .resumed: .resumed
        case .autoPaused: .autoPaused
        case .autoResumed: .autoResumed
        case .split: .split
        case .summary: .summary
        case .zone: .zone
        case .gpsLost: .gpsLost
        case .gpsRegained: .gpsRegained
        case .strapLost: .strapLost
        case .strapRegained: .strapRegained
        case .contactLost: .contactLost
        case .batteryLow: .batteryLow
        case .linkLost: .linkLost
        case .linkBack: .linkBack
        case .countdown: .countdown
        case .raceLead: .raceLead
        case .partner(.split): .partnerSplit
        case .partner(.lost), .partner(.back): .partnerLink
        case .partner: .partner
        case .raceCancelled: .countdown
        case .course(.turnAhead): .turn
        case .course: .course
        case .say: .say
        }
    }
}

/// One figure of the periodic summary, with its value.
public enum SummaryFigure: Sendable, Equatable {
    /// Distance (m) and the time it took (s): "5 kilometres in 24 minutes 10 seconds".
    case distanceIn(distance: Double, elapsed: Double)
    case distance(Double)
    case elapsed(Double)
    /// s/km.
    case averagePace(Double)
    case currentPace(Double)
    case heartRate(Int)
    case averageHeartRate(Double)
    /// Steps per minute, from the footpod.
    case cadence(Int)
    /// In a race: the gap to the partner (m, positive when I lead), and in time (s) when known.
    case gap(partner: String, metres: Double, seconds: Double?)
}

/// What a race partner did, as a cue says it.
public enum PartnerCue: Sendable, Equatable {
    case paused(String)
    case resumed(String)
    case split(String, index: Int, seconds: Double)
    case finished(String, elapsed: Double)
    case abandoned(String)
    case lost(String)
    case back(String)
}

/// A heart-rate zone cue: the zone entered, or where the wearer is against a target zone.
public enum ZoneCue: Sendable, Equatable {
    case entered(Int)
    case above(target: Int)
    case below(target: Int)
    case inTarget(Int)
}
