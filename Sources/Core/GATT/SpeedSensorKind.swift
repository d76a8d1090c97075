import ATT
import SpeedSensors

/// The two kinds of distance sensor: a footpod (Running Speed and Cadence, 0x1814) and a treadmill
/// (Fitness Machine, 0x1826). Each is a `GATTPlan` for the shared client and a decoder of its values.
public enum SpeedSensorKind: String, Sendable, Equatable, CaseIterable {
    case footpod, treadmill

    public static let runningSpeedAndCadence = BluetoothUUID.short(0x1814)
    public static let rscMeasurement = BluetoothUUID.short(0x2A53)
    public static let rscFeature = BluetoothUUID.short(0x2A54)
    public static let sensorLocation = BluetoothUUID.short(0x2A5D)
    public static let fitnessMachine = BluetoothUUID.short(0x1826)
    public static let fitnessMachineFeature = BluetoothUUID.short(0x2ACC)
    public static let treadmillData = BluetoothUUID.short(0x2ACD)
    public static let fitnessMachineStatus = BluetoothUUID.short(0x2ADA)

    /// The kind a device advertising `services` is, if any (a treadmill first: some also offer RSC).
    public init?(advertising services: [BluetoothUUID]) {
        if services.contains(Self.fitnessMachine) {
            self = .treadmill
        } else if services.contains(Self.runningSpeedAndCadence) {
            self = .footpod
        } else {
            return nil
        }
    }

    /// What to discover, subscribe to and read. The treadmill's control point is left alone: the
    /// machine is read, never driven.
    public var plan: GATTPlan {
        let battery = GATTPlan.Service(
            HeartRateProfile.batteryService,
            "Battery",
            read: [HeartRateProfile.batteryLevel]
        )
        switch self {
        case .footpod:
            return GATTPlan(
                peer: "footpod",
                services: [
                    .init(
                        Self.runningSpeedAndCadence,
                        "Running Speed and Cadence",
                        required: true,
                        subscribe: [.init(Self.rscMeasurement, "RSC Measurement", required: true)],
                        read: [Self.rscFeature, Self.sensorLocation]
                    ),
                    battery,
                ]
            )
        case .treadmill:
            return GATTPlan(
                peer: "treadmill",
                services: [
                    .init(
                        Self.fitnessMachine,
                        "Fitness Machine",
                        required: true,
                        subscribe: [
                            .init(Self.treadmillData, "Treadmill Data", required: true),
                            .init(Self.fitnessMachineStatus, "Fitness Machine Status"),
                        ],
                        read: [Self.fitnessMachineFeature]
                    ),
                    battery,
                ]
            )
        }
    }

    /// What one value of this sensor says.
    public enum Reading: Sendable, Equatable {
        case sample(SpeedSample)
        case machineStatus(FitnessMachineStatus)
        /// The sensor's feature bits (0x2A54 or 0x2ACC's first field), logged as they are.
        case feature(UInt32)
        case batteryLevel(Int)
        /// A value the session has no use for (a location, a split record with nothing in it).
        case nothing
    }

    /// Decodes a notified or read value; a truncated one is an error naming the field.
    public func reading(_ uuid: BluetoothUUID, _ value: [UInt8]) throws(SpeedPayloadError) -> Reading {
        switch uuid {
        case Self.rscMeasurement: return .sample(SpeedSample(try RSCMeasurement(payload: value)))
        case Self.treadmillData:
            let sample = SpeedSample(try TreadmillData(payload: value))
            return sample.isEmpty ? .nothing : .sample(sample)
        case Self.fitnessMachineStatus: return .machineStatus(try FitnessMachineStatus(payload: value))
        case Self.rscFeature: return .feature(UInt32(try RSCFeature(payload: value).rawValue))
        case Self.fitnessMachineFeature: return .feature(try FitnessMachineFeature(payload: value).rawValue)
        case HeartRateProfile.batteryLevel: return value.first.map { .batteryLevel(Int($0)) } ?? .nothing
        default: return .nothing
        }
    }
}
