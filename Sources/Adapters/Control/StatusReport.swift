/// The figures `ctl status` shows, as the control socket's JSON carries them.
public struct StatusReport: Sendable, Codable, Equatable {
    public struct GPS: Sendable, Codable, Equatable {
        public var gpsdConnected: Bool
        /// gpsd mode of the last report: 1 no fix, 2 2D, 3 3D.
        public var mode: Int?
        public var horizontalError: Double?
        public var lastFixAge: Double?
        public var lost: Bool
        /// Why there is no fix, while there is none.
        public var noFix: NoFix?

        enum CodingKeys: String, CodingKey {
            case gpsdConnected = "gpsd_connected"
            case mode
            case horizontalError = "horizontal_error_m"
            case lastFixAge = "last_fix_age_s"
            case lost
            case noFix = "no_fix"
        }
    }

    /// Why there is no fix, as gpsd tells it (the engine's `NoFixReason` on the wire).
    public struct NoFix: Sendable, Codable, Equatable {
        public enum Reason: String, Sendable, Codable {
            case gpsdUnreachable = "gpsd_unreachable"
            case waitingForGPSD = "waiting_for_gpsd"
            case gpsdError = "gpsd_error"
            case noReceiver = "no_receiver"
            case receiverSilent = "receiver_silent"
            case searching
        }

        public var reason: Reason
        /// The connection's error, gpsd's refusal, or the silent receiver's path.
        public var detail: String?
        public var satellitesSeen: Int?
        public var satellitesUsed: Int?

        public init(reason: Reason, detail: String? = nil, satellitesSeen: Int? = nil, satellitesUsed: Int? = nil) {
            self.reason = reason
            self.detail = detail
            self.satellitesSeen = satellitesSeen
            self.satellitesUsed = satellitesUsed
        }

        enum CodingKeys: String, CodingKey {
            case reason, detail
            case satellitesSeen = "satellites_seen"
            case satellitesUsed = "satellites_used"
        }

        /// One line for a person: what `ctl status` prints after "no fix".
        public var sentence: String {
            switch reason {
            case .gpsdUnreachable: return "gpsd unreachable" + (detail.map { ": \($0)" } ?? "")
            case .waitingForGPSD: return "waiting for gpsd's first report"
            case .gpsdError: return "gpsd refused a request" + (detail.map { ": \($0)" } ?? "")
            case .noReceiver: return "gpsd has no receiver attached"
            case .receiverSilent: return "no report from the receiver" + (detail.map { " \($0)" } ?? "")
            case .searching:
                var text = "the receiver is searching"
                if let seen = satellitesSeen { text += ", \(seen) satellites seen" }
                if let used = satellitesUsed { text += ", \(used) used" }
                return text
            }
        }
    }

    /// The strap as the daemon sees it now; nil when no strap is configured.
    public struct HeartRate: Sendable, Codable, Equatable {
        /// "searching" (no beat yet), "streaming", "lost" or "held" (another program holds it).
        public var link: String
        /// While "held": how, as far as the system says.
        public var heldBy: String?
        public var address: String?
        public var bpm: Int?
        public var contact: String?
        public var batteryPercent: Int?
        public var location: String?
        public var lastBeatAge: Double?
        public var beats: Int
        public var malformed: Int

        enum CodingKeys: String, CodingKey {
            case link, address, bpm, contact, location, beats, malformed
            case heldBy = "held_by"
            case batteryPercent = "battery_percent"
            case lastBeatAge = "last_beat_age_s"
        }
    }

    /// A footpod or treadmill as the daemon sees it now (one per configured sensor).
    public struct SpeedSensor: Sendable, Codable, Equatable {
        /// footpod or treadmill.
        public var kind: String
        /// "searching" (no sample yet), "streaming", "lost" or "held" (another program holds it).
        public var link: String
        /// While "held": how, as far as the system says.
        public var heldBy: String?
        public var address: String?
        public var speed: Double?
        public var cadence: Int?
        public var totalDistance: Double?
        public var batteryPercent: Int?
        public var lastSampleAge: Double?
        public var samples: Int
        public var malformed: Int

        enum CodingKeys: String, CodingKey {
            case kind, link, address, cadence, samples, malformed
            case heldBy = "held_by"
            case speed = "speed_mps"
            case totalDistance = "sensor_total_m"
            case batteryPercent = "battery_percent"
            case lastSampleAge = "last_sample_age_s"
        }
    }

    /// The data log: "ok", or "failing" with why and since when, and what memory holds.
    public struct Storage: Sendable, Codable, Equatable {
        public struct Dropped: Sendable, Codable, Equatable {
            public var fixes: Int
            public var beats: Int
            public var events: Int
        }

        public var state: String
        public var error: String?
        /// full, io or other.
        public var cause: String?
        public var failingFor: Double?
        public var pendingRows: Int
        public var dropped: Dropped

        enum CodingKeys: String, CodingKey {
            case state, error, cause, dropped
            case failingFor = "failing_for_s"
            case pendingRows = "pending_rows"
        }
    }

    /// The phone link: live, stale or lost, what the phone has not acknowledged, and how old the
    /// oldest unacknowledged critical message is. Nil when no phone is configured.
    public struct Link: Sendable, Codable, Equatable {
        public var state: String
        public var outboxDepth: Int
        public var oldestCriticalAge: Double?

        enum CodingKeys: String, CodingKey {
            case state
            case outboxDepth = "outbox_depth"
            case oldestCriticalAge = "oldest_critical_age_s"
        }
    }

    /// A virtual race: the countdown, then the partner's figures. Nil when there is none.
    public struct Race: Sendable, Codable, Equatable {
        public var run: String
        public var phase: String
        public var startsIn: Double?
        public var clock: String?
        public var partner: String
        /// waiting, running, paused, finished or abandoned.
        public var partnerState: String
        /// live, stale or lost: from the age of their newest figures.
        public var partnerLink: String
        public var partnerDistance: Double?
        /// Positive when I lead, at equal time since the common start.
        public var gap: Double?
        /// Positive when I lead: how long ago the leader was where the other is (s).
        public var gapSeconds: Double?
        public var age: Double?
        public var leader: String?
        /// A race on a course: its name; the partner's distance and the gap are along it.
        public var course: String?

        enum CodingKeys: String, CodingKey {
            case run, phase, clock, partner, gap, leader, course
            case startsIn = "starts_in_s"
            case partnerState = "partner_state"
            case partnerLink = "partner_link"
            case partnerDistance = "partner_distance_m"
            case gapSeconds = "gap_s"
            case age = "partner_age_s"
        }
    }

    /// The session's altitude and climbing.
    public struct Elevation: Sendable, Codable, Equatable {
        /// gps or barometer.
        public var source: String
        public var altitude: Double
        public var gain: Double
        public var loss: Double
        /// Percent, over the last metres travelled.
        public var grade: Double?

        enum CodingKeys: String, CodingKey {
            case source
            case altitude = "altitude_m"
            case gain = "gain_m"
            case loss = "loss_m"
            case grade = "grade_percent"
        }
    }

    /// Energy spent so far, or why there is none.
    public struct Energy: Sendable, Codable, Equatable {
        public var kilocalories: Double?
        public var kilojoules: Double?
        /// lcda, pandolf or acsm_running: what costed most of it.
        public var model: String?
        public var bodyMass: Double?
        public var load: Double?
        /// no_body_mass or no_model when there is no figure.
        public var unavailable: String?

        enum CodingKeys: String, CodingKey {
            case kilocalories = "kcal"
            case kilojoules = "kj"
            case model
            case bodyMass = "body_mass_kg"
            case load = "load_kg"
            case unavailable
        }
    }

    /// The course the session follows; nil when it follows none.
    public struct Course: Sendable, Codable, Equatable {
        public var name: String
        public var length: Double
        public var done: Double
        public var toGo: Double
        /// How far the last position was from it (m).
        public var away: Double?
        /// not_started, on_course, leaving, off_course, rejoining or finished.
        public var state: String
        /// At the session's average speed, the time to its end (s).
        public var secondsToGo: Double?

        public init(
            name: String,
            length: Double,
            done: Double,
            toGo: Double,
            away: Double?,
            state: String,
            secondsToGo: Double?
        ) {
            self.name = name
            self.length = length
            self.done = done
            self.toGo = toGo
            self.away = away
            self.state = state
            self.secondsToGo = secondsToGo
        }

        enum CodingKeys: String, CodingKey {
            case name
            case length = "length_m"
            case done = "done_m"
            case toGo = "to_go_m"
            case away = "away_m"
            case state
            case secondsToGo = "to_go_s"
        }
    }

    /// The barometer; nil when none is configured.
    public struct Barometer: Sendable, Codable, Equatable {
        /// absent, found, reading or unreadable.
        public var state: String
        public var name: String?
        public var device: String?
        public var pressure: Double?
        public var lastReadingAge: Double?
        public var readings: Int
        public var unreadable: Int
        public var reason: String?

        enum CodingKeys: String, CodingKey {
            case state, name, device
            case pressure = "pressure_kpa"
            case lastReadingAge = "last_reading_age_s"
            case readings, unreadable, reason
        }
    }

    /// The IMU; nil when none is configured.
    public struct IMU: Sendable, Codable, Equatable {
        /// absent, found, reading or unreadable.
        public var state: String
        /// wrist, hip or ankle.
        public var placement: String
        public var name: String?
        public var device: String?
        public var trigger: String?
        public var rate: Double?
        public var measuredRate: Double?
        public var samples: Int
        public var unreadable: Int
        /// The pedometer: steps since the daemon found the IMU, steps a minute, standing still.
        public var steps: Int
        public var cadence: Double?
        public var still: Bool
        public var lastSampleAge: Double?
        public var reason: String?

        enum CodingKeys: String, CodingKey {
            case state, placement, name, device, trigger
            case rate = "rate_hz"
            case measuredRate = "measured_rate_hz"
            case samples, unreadable, steps
            case cadence = "cadence_spm"
            case still
            case lastSampleAge = "last_sample_age_s"
            case reason
        }
    }

    public var state: String
    public var sessionID: String?
    public var activity: String?
    public var distance: Double?
    public var elapsed: Double?
    public var moving: Double?
    public var paused: Double?
    public var averagePace: Double?
    public var currentPace: Double?
    public var fixesAccepted: Int?
    public var fixesRejected: Int?
    /// gps, or indoors footpod or treadmill; nil from an older daemon or with no session.
    public var distanceSource: String? = nil
    public var elevation: Elevation? = nil
    public var energy: Energy? = nil
    /// Steps the IMU counted in this session; nil without one.
    public var steps: Int? = nil
    public var course: Course? = nil
    public var gps: GPS
    public var heartRate: HeartRate?
    /// Footpods and treadmills; nil from a daemon older than them.
    public var speedSensors: [SpeedSensor]? = nil
    public var barometer: Barometer? = nil
    public var imu: IMU? = nil
    /// Nil only from a daemon older than the storage figures.
    public var storage: Storage?
    public var link: Link?
    public var race: Race? = nil

    enum CodingKeys: String, CodingKey {
        case state
        case sessionID = "session_id"
        case activity
        case distance = "distance_m"
        case elapsed = "elapsed_s"
        case moving = "moving_s"
        case paused = "paused_s"
        case averagePace = "avg_pace_s_per_km"
        case currentPace = "current_pace_s_per_km"
        case fixesAccepted = "fixes_accepted"
        case fixesRejected = "fixes_rejected"
        case distanceSource = "distance_source"
        case elevation
        case energy
        case steps
        case course
        case gps
        case heartRate = "heart_rate"
        case speedSensors = "speed_sensors"
        case barometer
        case imu
        case storage
        case link = "phone_link"
        case race
    }
}
