import Course
import HeartRate
import RaceCore
import SessionCore
import TrackCore

/// What `status` shows: the session's figures, GPS, the strap and storage, as the core sees them
/// now. The control socket (and later the phone link) turns it into its own wire format.
public struct SessionStatus: Sendable, Equatable {
    public struct Figures: Sendable, Equatable {
        public var sessionID: String
        public var activity: Activity
        public var distance: Double
        public var elapsed: Double
        public var moving: Double
        public var paused: Double
        public var averagePace: Double?
        public var currentPace: Double?
        public var fixesAccepted: Int
        public var fixesRejected: Int
        /// gps, or indoors footpod or treadmill.
        public var distanceSource: DistanceSource = .gps
        /// Altitude, gain and loss, grade: nil while no fix has carried an altitude.
        public var elevation: SessionSummary.ElevationFigures? = nil
        /// Steps the IMU counted in this session; nil without one.
        public var steps: Int? = nil
        /// Energy spent; nil with `energyUnavailable` saying why.
        public var energy: SessionSummary.EnergyFigures? = nil
        public var energyUnavailable: EnergyUnavailable? = nil
        /// The course followed: distance done and to go, how far off it, the time to go.
        public var course: CourseProgress? = nil
    }

    /// Why a session has no energy figure.
    public enum EnergyUnavailable: String, Sendable, Equatable {
        /// Neither the config nor the start command gave the wearer's body mass.
        case noBodyMass = "no_body_mass"
        /// No published equation costs this activity (a ride).
        case noModel = "no_model"
    }

    public struct GPS: Sendable, Equatable {
        public var gpsdConnected: Bool
        /// gpsd mode of the last report: 1 no fix, 2 2D, 3 3D.
        public var mode: Int?
        public var horizontalError: Double?
        public var lastFixAge: Double?
        /// gpsd gone, or no usable fix for the lost-after time: the same judgement as the
        /// session's `gps_lost` events.
        public var lost: Bool
        /// Why there is no fix (none yet, or lost), as gpsd tells it; nil while there is one.
        public var noFix: NoFixReason?
    }

    public struct HeartRate: Sendable, Equatable {
        public enum Link: String, Sendable {
            /// No beat yet.
            case searching
            case streaming
            case lost
            /// Another program on this machine holds it (`heldBy` says how); asked for again.
            case held
        }

        public var link: Link
        /// Why the strap cannot be had, while `link` is `held`.
        public var heldBy: String?
        public var address: String?
        public var bpm: Int?
        public var contact: SensorContact?
        public var batteryPercent: Int?
        public var location: String?
        public var lastBeatAge: Double?
        public var beats: Int
        public var malformed: Int
    }

    /// A footpod or treadmill as `status` shows it.
    public struct SpeedSensor: Sendable, Equatable {
        public var kind: String
        public var link: HeartRate.Link
        /// Why the sensor cannot be had, while `link` is `held`.
        public var heldBy: String?
        public var address: String?
        /// m/s, as the sensor last said.
        public var speed: Double?
        /// Steps per minute (footpods).
        public var cadence: Int?
        /// The sensor's own count (m).
        public var totalDistance: Double?
        public var batteryPercent: Int?
        public var lastSampleAge: Double?
        public var samples: Int
        public var malformed: Int
    }

    public struct Storage: Sendable, Equatable {
        /// Nil while commits succeed.
        public var failure: StorageFailure?
        /// How long commits have been failing (s).
        public var failingFor: Double?
        /// Rows logged in memory, not yet committed.
        public var pendingRows: Int
        /// Given up since the daemon started, because storage could not take them.
        public var dropped: DropCounts
    }

    public struct Link: Sendable, Equatable {
        public var state: PhoneLinkState
        /// Messages the phone has not acknowledged yet.
        public var outboxDepth: Int
        /// Age of the oldest unacknowledged critical message (s, wall clock: it may predate a reboot).
        public var oldestCriticalAge: Double?
    }

    public var state: SessionLifecycle.State
    /// Nil when no session is open.
    public var figures: Figures?
    public var gps: GPS
    /// Nil when no strap is configured.
    public var heartRate: HeartRate?
    /// The footpods and treadmills configured, in the config's order.
    public var speedSensors: [SpeedSensor] = []
    /// Nil when no barometer is configured.
    public var barometer: BarometerStatus? = nil
    /// Nil when no IMU is configured.
    public var imu: IMUStatus? = nil
    public var storage: Storage
    /// Nil when no phone is configured.
    public var link: Link? = nil
    /// The virtual race armed or followed, if any.
    public var race: Race? = nil

    /// A race as `ctl status` shows it: the countdown while armed, then the partner.
    public struct Race: Sendable, Equatable {
        public var run: String
        /// armed, running or finished (my own session).
        public var phase: String
        /// Seconds to the agreed start while armed.
        public var startsIn: Double?
        /// gps or system: what the wearable's idea of UTC comes from.
        public var clock: String?
        public var partner: RaceStatus
        /// A race on a course: the course both follow; the partner's distance and the gap are along it.
        public var course: String? = nil
    }
}
