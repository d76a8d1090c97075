import HeartRate
import TrackCore

/// Everything a session's listeners (the data log, cues, the phone, a dashboard) hear about: one
/// typed enum from the core to every sink; only Store turns it into a stored kind and detail.
public enum SessionEvent: Sendable, Equatable {
    // MARK: Lifecycle

    case started(TimeAnchor)
    /// Paused or resumed by command (auto-pause is a `track` event).
    case paused
    case resumed
    case ended(EndReason)
    /// A restarted daemon took the session over, at this distance.
    case recovered(distance: Double, lastFix: GPSTime?)
    /// The first fix after a restart: the daemon was down this long (s).
    case restartGap(down: Double)

    // MARK: The path of a fix

    /// Auto-pause, splits, GPS lost and regained, bridged gaps, resets.
    case track(TrackEvent)

    // MARK: gpsd

    case gpsdConnected
    case gpsdDisconnected
    case deviceAdded(path: String)
    case deviceRemoved(path: String)

    // MARK: The strap

    /// Found, lost, regained, contact, battery.
    case strap(StrapEvent)
    /// Where the strap says it is worn, when that changes.
    case strapLocation(String)
    /// A notification that is not a measurement: its bytes and why.
    case malformedBeat(payload: [UInt8], reason: String)

    // MARK: Footpods and treadmills

    case speedSensor(SpeedSensorEvent)

    // MARK: The phone link

    /// Live, stale or lost: the link to the phone changed.
    case phoneLink(PhoneLinkState)

    // MARK: Audio cues

    /// A cue spoken or dropped: what the wearer heard, and when.
    case cue(CueOutcome)

    // MARK: A virtual race

    case race(RaceEvent)

    // MARK: A course

    /// Following a course: off it, back on it, a turn ahead, its end.
    case course(CourseEvent)

    // MARK: Storage

    /// A commit failed: rows are held (raw fixes given up first) and retried.
    case storageFailed(StorageFailure)
    /// Commits succeed again after `after` seconds; what could not be kept meanwhile.
    case storageRecovered(after: Double, dropped: DropCounts)
}

extension SessionEvent {
    /// Events that must reach the log whatever happens; the others are notices, given up before
    /// lifecycle rows when storage is short.
    public var isCritical: Bool {
        switch self {
        case .started, .paused, .resumed, .ended, .recovered, .restartGap, .storageFailed, .storageRecovered: true
        case .race(.armed), .race(.disarmed), .race(.started), .race(.partner), .race(.followed): true
        case .race(.countdown), .race(.news): false
        case .course(.following), .course(.finished): true
        case .course: false
        case .track(.autoPaused), .track(.autoResumed), .track(.split): true
        case .track, .gpsdConnected, .gpsdDisconnected, .deviceAdded, .deviceRemoved, .strap, .strapLocation,
            .malformedBeat, .speedSensor, .phoneLink, .cue:
            false
        }
    }
}
