import CertificateFingerprint
import Cues
import Energy
import GATT
import Gait
import SessionCore
import TrackCore

/// Everything `wearbridge run` can be told, with the defaults a Pi install uses.
public struct WearbridgeConfig: Sendable, Equatable {
    public static let defaultPath = "/etc/wearbridge/wearbridge.toml"

    /// How to reach gpsd: TCP or a Unix socket.
    public enum GPSDEndpoint: Sendable, Equatable {
        case tcp(host: String, port: Int)
        case unix(path: String)
    }

    public var gpsd: GPSDEndpoint = .tcp(host: "127.0.0.1", port: 2947)
    /// No usable fix for this long is "GPS lost" (s).
    public var gpsLostAfter: Double = 5
    public var storageDirectory = "/var/lib/wearbridge"
    public var controlSocket = "/run/wearbridge/control.sock"
    /// Group that may use the control socket; nil leaves the daemon's own group.
    public var controlGroup: String?
    public var activity: Activity = .running
    /// Begin a session at the first good fix, with no command.
    public var autostart = false
    public var abandonAfter: Double = 6 * 3600
    public var logLevel = "info"
    public var strap = Strap()
    /// How every Bluetooth sensor is reached (`[bluetooth] stack`).
    public var bluetoothStack: BluetoothStack = .auto
    public var footpod = SpeedSensor()
    public var treadmill = SpeedSensor()
    /// `ctl start` begins an indoor session (distance from the footpod or treadmill, no GPS) unless
    /// told otherwise.
    public var indoor = false
    /// The phone-role peer this wearable reports to; nil: no phone link.
    public var phone: Phone?
    public var cues = CuesConfig()
    public var barometer = Barometer()
    /// `[imu]`: an IIO accelerometer read buffered for steps; nil (no table): none looked for.
    public var imu: IMU?
    /// `[wearer]`: body mass and usual load, which energy needs; nil body mass: no energy unless
    /// a start command gives it.
    public var wearer = Wearer()

    public struct Wearer: Sendable, Equatable {
        public var bodyMass: Double?
        public var load: Double = 0
        public var walkingModel: WalkingModel = .lcda
    }

    /// `[barometer]`: an IIO pressure sensor, by default the first one found.
    public struct Barometer: Sendable, Equatable {
        public enum Choice: Sendable, Equatable {
            case off
            /// The first IIO device with a pressure channel.
            case auto
            /// A driver's name (`bmp280`) or a sysfs path.
            case named(String)
        }

        public var choice: Choice = .auto
        /// Seconds between readings.
        public var interval: Double = 1
    }

    /// `[imu]`: an IIO accelerometer (an IMU's), where it is worn and how fast it is read.
    public struct IMU: Sendable, Equatable {
        public enum Choice: Sendable, Equatable {
            case off
            /// The first IIO device with an accelerometer's buffered channels.
            case auto
            /// A driver's name (`bmi160`) or a sysfs path.
            case named(String)
        }

        public var choice: Choice = .auto
        public var placement: Placement = .hip
        /// Scans a second.
        public var rate: Double = 100
        public static let rates = 25.0...400.0

        public init(choice: Choice = .auto, placement: Placement = .hip, rate: Double = 100) {
            self.choice = choice
            self.placement = placement
            self.rate = rate
        }
    }

    /// Where the phone listens and which certificate it must present.
    public struct Phone: Sendable, Equatable {
        public enum Trust: Sendable, Equatable {
            /// SHA-256 fingerprint of the phone's certificate, as `wearbridge-phone identity` prints it.
            case fingerprint(Fingerprint)
            /// The phone's certificate file (PEM); its fingerprint is pinned.
            case certificate(path: String)
        }

        public var host: String
        public var port: Int = 7370
        public var trust: Trust
        /// How this wearable introduces itself (informational: the phone knows it by its certificate).
        public var name: String
        /// No traffic for this long is a stale link (s).
        public var staleAfter: Double = 5

        public init(host: String, port: Int = 7370, trust: Trust, name: String) {
            self.host = host
            self.port = port
            self.trust = trust
            self.name = name
        }
    }

    /// The heart-rate strap: which one, on which adapter, and the wearer's maximum heart rate.
    public struct Strap: Sendable, Equatable {
        public enum Choice: Sendable, Equatable {
            case none
            /// "AA:BB:CC:DD:EE:FF" with its LE address type ("random" or "public").
            case address(String, type: String)
            /// The first heart-rate strap heard, remembered in the storage directory.
            case firstSeen
        }

        public var choice: Choice = .none
        public var adapter = "hci0"
        /// A connected strap with no beat for this long is lost and reconnected (s).
        public var silenceAfter: Double = 5
        /// For heart-rate zones (50/60/70/80/90 % of it).
        public var maxHeartRate = 190

        public init() {}
    }

    /// A footpod or a treadmill: which one, on which adapter.
    public struct SpeedSensor: Sendable, Equatable {
        public var choice: Strap.Choice = .none
        public var adapter = "hci0"
        /// A connected sensor with no sample for this long is dropped and reconnected (s).
        public var silenceAfter: Double = 10

        public init() {}
    }

    public init() {}

    /// `[footpod]` or `[treadmill]`.
    public func speedSensor(_ kind: SpeedSensorKind) -> SpeedSensor {
        switch kind {
        case .footpod: footpod
        case .treadmill: treadmill
        }
    }

    /// The cue rules' settings, with the wearer's zones.
    public var cueSettings: CueSettings {
        var settings = cues.rules
        settings.zones = strap.choice == .none ? nil : controller.heartRateZones
        return settings
    }

    /// Where the IMU is worn, when one is looked for.
    public var imuPlacement: Placement? {
        guard let imu, imu.choice != .off else { return nil }
        return imu.placement
    }

    /// The pure core's settings from this configuration.
    public var controller: SessionController.Configuration {
        SessionController.Configuration(
            activity: activity,
            autostart: autostart,
            abandonAfter: abandonAfter,
            gpsLostAfter: gpsLostAfter,
            heartRateZones: HeartRateZones(maxHeartRate: Double(strap.maxHeartRate)),
            indoorByDefault: indoor,
            indoorSource: treadmill.choice != .none
                ? .treadmill : footpod.choice != .none ? .footpod : imuPlacement != nil ? .steps : nil,
            stepsCountDistance: footpod.choice == .none,
            bodyMass: wearer.bodyMass,
            load: wearer.load,
            walkingModel: wearer.walkingModel
        )
    }
}
