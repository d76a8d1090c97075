import ATT
import HeartRate
import HexCoding

/// The GATT client for one connection to a heart-rate strap: `GATTClient` with the strap's plan
/// (Heart Rate 0x180D with its measurement and body sensor location, Battery 0x180F if offered),
/// its outputs named for what a strap says.
public struct HeartRateClient: Sendable {
    public enum Output: Sendable, Equatable {
        /// Write these bytes to the bearer as one PDU.
        case send([UInt8])
        /// Notifications are enabled: beats will flow.
        case subscribed(HeartRateProfile)
        /// The value of a Heart Rate Measurement notification or indication (not yet parsed).
        case measurement([UInt8])
        case batteryLevel(Int)
        case bodySensorLocation(UInt8)
        /// A PDU the client could not use (garbage, unexpected, a refused optional read): counted, logged.
        case ignored(String)
        /// The connection cannot go on: drop the link.
        case failed(String)
    }

    /// The strap's plan: what `GATTClient` discovers, subscribes to and reads.
    public static let plan = GATTPlan(
        peer: "strap",
        services: [
            .init(
                HeartRateProfile.heartRateService,
                "Heart Rate",
                required: true,
                subscribe: [.init(HeartRateProfile.heartRateMeasurement, "Heart Rate Measurement", required: true)],
                read: [HeartRateProfile.bodySensorLocation]
            ),
            .init(HeartRateProfile.batteryService, "Battery", read: [HeartRateProfile.batteryLevel]),
        ]
    )

    private var client: GATTClient
    public private(set) var profile: HeartRateProfile?

    /// The GATT client underneath, with the strap's plan, for a transport that drives it.
    public var gatt: GATTClient { client }

    public var requestTimeout: Double { client.requestTimeout }
    public var isSubscribed: Bool { client.isSubscribed }
    public var isFailed: Bool { client.isFailed }

    public init(requestedMTU: UInt16 = 185, requestTimeout: Double = 30) {
        client = GATTClient(plan: Self.plan, requestedMTU: requestedMTU, requestTimeout: requestTimeout)
    }

    /// The bearer is up: begin with the MTU exchange.
    public mutating func start(now: Double) -> [Output] { named(client.start(now: now)) }

    /// One PDU from the strap.
    public mutating func receive(_ bytes: [UInt8], now: Double) -> [Output] { named(client.receive(bytes, now: now)) }

    /// The passage of time: an outstanding request past its deadline ends the connection.
    public mutating func tick(now: Double) -> [Output] { named(client.tick(now: now)) }

    /// Re-reads the battery level (straps rarely notify it); nothing when busy or unknown.
    public mutating func refreshBattery(now: Double) -> [Output] {
        named(client.read(HeartRateProfile.batteryLevel, now: now))
    }

    private mutating func named(_ outputs: [GATTClient.Output]) -> [Output] {
        outputs.map { output in
            let named = Self.name(output)
            if case .subscribed(let found) = named { profile = found }
            return named
        }
    }

    /// What a GATT output means from a strap.
    public static func name(_ output: GATTClient.Output) -> Output {
        switch output {
        case .send(let bytes): return .send(bytes)
        case .subscribed(let layout): return .subscribed(HeartRateProfile(layout: layout))
        case .value(HeartRateProfile.heartRateMeasurement, let value): return .measurement(value)
        case .value(let uuid, let value): return .ignored("value of \(uuid) (\(value.count) bytes) unasked for")
        case .read(HeartRateProfile.batteryLevel, let value):
            return value.first.map { .batteryLevel(Int($0)) } ?? .ignored("empty battery level")
        case .read(HeartRateProfile.bodySensorLocation, let value):
            return value.first.map { .bodySensorLocation($0) } ?? .ignored("empty body sensor location")
        case .read(let uuid, let value): return .ignored("read of \(uuid) (\(value.count) bytes) unasked for")
        case .ignored(let why): return .ignored(why)
        case .failed(let why): return .failed(why)
        }
    }
}

extension HeartRateProfile {
    init(layout: GATTLayout) {
        let measurement = layout.characteristic(Self.heartRateMeasurement)?.valueHandle ?? 0
        self.init(
            measurementHandle: measurement,
            measurementCCCD: layout.subscribed[measurement] ?? 0,
            bodySensorLocationHandle: layout.characteristic(Self.bodySensorLocation).flatMap {
                $0.canRead ? $0.valueHandle : nil
            },
            batteryLevelHandle: layout.characteristic(Self.batteryLevel)?.valueHandle,
            mtu: layout.mtu
        )
    }
}

func hex(_ bytes: [UInt8]) -> String { Hex.encode(bytes) }

func hex16(_ value: UInt16) -> String { Hex.encode([UInt8(value >> 8), UInt8(value & 0xFF)]) }

/// 30 -> "30", 0.5 -> "0.5": durations as people write them.
public func formatSeconds(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
}
