import HeartRate
import SessionCore
import TrackCore

/// A message for the phone, typed until the outbox stores it: written in the same transaction as
/// the rows it reports (`SessionRow.outbox`), so no message exists without its cause.
public enum LinkMessage: Sendable, Equatable {
    case snapshot(LinkSnapshot)
    /// `source`: where the session's distance comes from (indoors a footpod or a treadmill).
    case started(sessionID: String, activity: Activity, startedAt: TimeAnchor, source: DistanceSource = .gps)
    case paused(sessionID: String, auto: Bool, distance: Double, elapsed: Double)
    case resumed(sessionID: String, auto: Bool, distance: Double, elapsed: Double)
    /// `course`: the course the session followed, where it stood at the end.
    case ended(
        sessionID: String,
        reason: EndReason,
        summary: SessionSummary,
        endedAt: TimeAnchor?,
        course: LinkSnapshot.Course? = nil
    )
    case split(sessionID: String, Split)
    /// The answer to a command the phone sent.
    case commandReply(CommandReply)
    case notice(sessionID: String?, LinkNotice)
    /// A virtual race's session began, `offsetMilliseconds` after the agreed instant.
    case raceStarted(sessionID: String, run: String, offsetMilliseconds: Int, clock: String)

    /// How the outbox keeps it: critical ones forever and in order, one snapshot at most, notices
    /// bounded.
    public enum Class: String, Sendable, CaseIterable {
        case critical
        case snapshot
        case notice
    }

    public var messageClass: Class {
        switch self {
        case .snapshot: .snapshot
        case .notice: .notice
        case .started, .paused, .resumed, .ended, .split, .commandReply, .raceStarted: .critical
        }
    }

    /// The kind `outbox` and `inbox` list it under.
    public var kind: MessageKind {
        switch self {
        case .snapshot: .snapshot
        case .started: .sessionStarted
        case .paused: .sessionPaused
        case .resumed: .sessionResumed
        case .ended: .sessionEnded
        case .split: .split
        case .commandReply: .commandReply
        case .notice(_, let notice): MessageKind(notice.kind)
        case .raceStarted: .raceStarted
        }
    }

    public var sessionID: String? {
        switch self {
        case .snapshot(let snapshot): snapshot.sessionID
        case .started(let id, _, _, _), .paused(let id, _, _, _), .resumed(let id, _, _, _), .ended(let id, _, _, _, _),
            .split(let id, _), .raceStarted(let id, _, _, _):
            id
        case .commandReply(let reply): reply.sessionID
        case .notice(let id, _): id
        }
    }
}

/// GPS lost or regained, the strap lost, regained or low: kept for the phone, but bounded.
public struct LinkNotice: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable {
        case gpsLost = "gps_lost"
        case gpsRegained = "gps_regained"
        case strapLost = "strap_lost"
        case strapRegained = "strap_regained"
        case strapBattery = "strap_battery"
        case storageRecovered = "storage_recovered"
    }

    public var kind: Kind
    public var detail: String
    public var batteryPercent: Int?

    public init(_ kind: Kind, detail: String, batteryPercent: Int? = nil) {
        self.kind = kind
        self.detail = detail
        self.batteryPercent = batteryPercent
    }
}

/// The live figures the phone shows (at most 100 bytes on the wire, every field set).
public struct LinkSnapshot: Sendable, Equatable {
    public enum GPSQuality: String, Sendable {
        case none
        case lost
        case poor
        case good
    }

    /// The course a session follows, as the phone shows it.
    public struct Course: Sendable, Equatable {
        /// Where the wearer stands with the course; the raw value is its name in status and the API.
        public enum State: String, Sendable, CaseIterable {
            case notStarted = "not_started"
            case onCourse = "on_course"
            case leaving
            case offCourse = "off_course"
            case rejoining
            case finished
        }

        /// Distance along the course left to its end (m).
        public var toGo: Double
        /// Distance from the course (m); nil before any position.
        public var away: Double?
        public var state: State
        /// Time to the finish at the session's average speed (s); nil while unknown.
        public var secondsToGo: Double?

        public init(toGo: Double, away: Double?, state: State, secondsToGo: Double?) {
            self.toGo = toGo
            self.away = away
            self.state = state
            self.secondsToGo = secondsToGo
        }
    }

    public var sessionID: String?
    public var state: SessionLifecycle.State
    public var distance: Double
    public var elapsed: Double
    public var moving: Double
    /// s/km; nil while unknown.
    public var pace: Double?
    public var averagePace: Double?
    public var heartRate: Int?
    public var zone: Int?
    public var gps: GPSQuality
    public var strapLost: Bool
    /// GPS time (Unix s) of the newest fix the figures reflect: a race partner's elapsed time.
    public var gpsTime: Double?
    /// Lower bounds of heart-rate zones 1...n in bpm (the wearable's configured zones): the
    /// phone's heart-rate chart draws its bands from them. Empty when no zones are configured.
    public var zoneFloors: [Int]
    /// Energy spent so far (kcal); nil while not estimated.
    public var energy: Double?
    /// Elevation gain so far (m); nil without altitudes.
    public var climbed: Double?
    /// Steps the IMU counted so far; nil without one.
    public var steps: Int?
    /// The course followed; nil when none.
    public var course: Course?

    public init(
        sessionID: String?,
        state: SessionLifecycle.State,
        distance: Double = 0,
        elapsed: Double = 0,
        moving: Double = 0,
        pace: Double? = nil,
        averagePace: Double? = nil,
        heartRate: Int? = nil,
        zone: Int? = nil,
        gps: GPSQuality = .none,
        strapLost: Bool = false,
        gpsTime: Double? = nil,
        zoneFloors: [Int] = [],
        energy: Double? = nil,
        climbed: Double? = nil,
        steps: Int? = nil,
        course: Course? = nil
    ) {
        self.energy = energy
        self.climbed = climbed
        self.steps = steps
        self.course = course
        self.gpsTime = gpsTime
        self.zoneFloors = zoneFloors
        self.sessionID = sessionID
        self.state = state
        self.distance = distance
        self.elapsed = elapsed
        self.moving = moving
        self.pace = pace
        self.averagePace = averagePace
        self.heartRate = heartRate
        self.zone = zone
        self.gps = gps
        self.strapLost = strapLost
    }
}
