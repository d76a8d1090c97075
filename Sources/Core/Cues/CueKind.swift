/// What a cue is about. The raw value names it in the data log (`cue_spoken`'s `cue`), in the
/// catalogs and in `wearbridge cues`.
public enum CueKind: String, Sendable, CaseIterable, Codable {
    case sessionStarted = "session_started"
    case sessionEnded = "session_ended"
    case paused
    case resumed
    case autoPaused = "auto_paused"
    case autoResumed = "auto_resumed"
    case split
    case summary
    case zone
    case gpsLost = "gps_lost"
    case gpsRegained = "gps_regained"
    case strapLost = "strap_lost"
    case strapRegained = "strap_regained"
    case contactLost = "contact_lost"
    case batteryLow = "battery_low"
    case linkLost = "link_lost"
    case linkBack = "link_back"
    /// A race's countdown and its cancellation.
    case countdown
    case raceLead = "race_lead"
    /// The partner paused, resumed, finished or left the race.
    case partner
    case partnerSplit = "partner_split"
    /// The partner's figures stopped coming, or came back.
    case partnerLink = "partner_link"
    /// Following a course: its start, off it, back on it, its end.
    case course
    /// A turn of the course ahead.
    case turn
    /// `wearbridge say`: a check of the earpiece.
    case say

    /// The switch in `[cues] kinds` that turns it on or off.
    public var group: CueGroup {
        switch self {
        case .sessionStarted, .sessionEnded, .paused, .resumed: .lifecycle
        case .autoPaused, .autoResumed: .autoPause
        case .split: .splits
        case .summary: .summary
        case .zone: .zones
        case .gpsLost, .gpsRegained: .gps
        case .strapLost, .strapRegained, .contactLost, .batteryLow: .strap
        case .linkLost, .linkBack: .link
        case .countdown, .raceLead, .partner, .partnerLink: .race
        case .partnerSplit: .partnerSplits
        case .course, .turn: .course
        case .say: .say
        }
    }

    /// Safety and lifecycle first, then splits and zones, then the periodic summary.
    public var priority: CuePriority {
        switch self {
        case .sessionStarted, .sessionEnded, .paused, .resumed, .autoPaused, .autoResumed, .gpsLost, .gpsRegained,
            .strapLost, .strapRegained, .contactLost, .batteryLow, .linkLost, .linkBack, .say, .countdown, .course,
            .turn:
            .urgent
        case .raceLead, .partner, .partnerLink: .training
        case .partnerSplit: .periodic
        case .split, .zone: .training
        case .summary: .periodic
        }
    }

    /// Cues that replace one another while waiting: a newer one of the same topic (a resume
    /// after a pause, GPS back after GPS lost) makes the older one pointless.
    public var topic: String {
        switch self {
        case .paused, .resumed, .autoPaused, .autoResumed: "pause"
        case .gpsLost, .gpsRegained: "gps"
        case .strapLost, .strapRegained: "strap"
        case .linkLost, .linkBack: "link"
        case .partnerLink: "partner_link"
        default: rawValue
        }
    }
}

/// How soon a cue must be spoken relative to others waiting; lower goes first.
public enum CuePriority: Int, Sendable, Comparable, Codable {
    case urgent = 0
    case training = 1
    case periodic = 2

    public static func < (lhs: CuePriority, rhs: CuePriority) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// The kinds a wearer turns on or off together (`[cues] kinds`).
public enum CueGroup: String, Sendable, CaseIterable, Codable {
    case lifecycle
    case autoPause = "auto_pause"
    case splits
    case summary
    case zones
    case gps
    case strap
    case link
    /// A virtual race: countdown, lead changes, the partner's news.
    case race
    /// The partner's splits (off with `kinds` leaving it out).
    case partnerSplits = "partner_splits"
    /// A course: off it, back on it, turns ahead, its end.
    case course
    case say
}
