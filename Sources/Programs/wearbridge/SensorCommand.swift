import ATT
import ArgumentParser
import Bluetooth
import GATT
import HexCoding
import SpeedSensors

/// `wearbridge sensor`: connect to a footpod or treadmill and print every sample, without the daemon.
struct SensorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sensor",
        abstract: "Connect to a footpod or treadmill and print every sample and link event (a field tool).",
        discussion: "Reconnects like the daemon does. ADDRESS as printed by `wearbridge scan`, or \"first-seen\"."
    )

    @Argument(help: "footpod or treadmill.")
    var kind: SpeedSensorKind

    @OptionGroup var device: DeviceOptions

    @OptionGroup var logging: LoggingOptions

    func run() async throws {
        let logger = logging.bootstrap(label: "wearbridge.sensor", default: .warning)
        let target: SpeedSensorLink.Target = device.peer.map { .address($0) } ?? .firstSeen
        let link = SpeedSensorLink(
            kind: kind,
            target: target,
            adapter: device.adapter,
            path: device.stack,
            logger: logger
        )
        let json = device.json
        await device.follow {
            await link.run { event in
                StandardOutput.line(json ? SpeedSensorEventText.json(event) : SpeedSensorEventText.text(event))
                StandardOutput.flush()
            }
        }
    }
}

extension SpeedSensorKind: ExpressibleByArgument {}

/// How `wearbridge sensor` prints what the link reports.
enum SpeedSensorEventText {
    static func text(_ event: SpeedSensorLinkEvent) -> String {
        switch event.what {
        case .connected: "connected  \(event.kind.rawValue) \(event.address)"
        case .sample(let sample, let payload): "sample  \(text(sample))  [\(Hex.encode(payload))]"
        case .malformed(let payload, let reason): "malformed  \(Hex.encode(payload)): \(reason)"
        case .machineStatus(let status): "status  \(status)"
        case .feature(let bits): "feature  0x\(String(bits, radix: 16))"
        case .batteryLevel(let level): "battery  \(level)%"
        case .lost(let reason): "lost  \(reason)"
        case .unavailable(let reason): "held  \(reason)"
        }
    }

    static func text(_ sample: SpeedSample) -> String {
        var parts: [String] = []
        if let speed = sample.speed { parts.append("\(TextFormat.format(speed, 2)) m/s") }
        if let cadence = sample.cadence { parts.append("\(cadence)/min") }
        if let stride = sample.strideLength { parts.append("stride \(TextFormat.format(stride, 2)) m") }
        if let total = sample.totalDistance { parts.append("total \(TextFormat.format(total, 1)) m") }
        if let grade = sample.inclination { parts.append("grade \(TextFormat.format(grade, 1))%") }
        if let elapsed = sample.elapsedTime { parts.append("elapsed \(elapsed) s") }
        return parts.joined(separator: "  ")
    }

    static func json(_ event: SpeedSensorLinkEvent) -> String {
        (try? JSONLine.encode(SpeedSensorEventJSON(event))) ?? "{}"
    }
}

/// `wearbridge sensor --json`: one object per event; fields that do not apply are left out.
private struct SpeedSensorEventJSON: Encodable {
    var kind: String
    var sensor: String
    var address: String
    var t: Double
    var hex: String?
    var speed_mps: Double?
    var cadence_spm: Int?
    var stride_m: Double?
    var total_m: Double?
    var incline_pct: Double?
    var reason: String?
    var detail: String?

    init(_ event: SpeedSensorLinkEvent) {
        sensor = event.kind.rawValue
        address = event.address
        t = event.receivedAt
        switch event.what {
        case .connected: kind = "connected"
        case .sample(let sample, let payload):
            kind = "sample"
            hex = Hex.encode(payload)
            speed_mps = sample.speed
            cadence_spm = sample.cadence
            stride_m = sample.strideLength
            total_m = sample.totalDistance
            incline_pct = sample.inclination
        case .malformed(let payload, let why):
            kind = "malformed"
            hex = Hex.encode(payload)
            reason = why
        case .machineStatus(let status):
            kind = "machine_status"
            detail = "\(status)"
        case .feature(let bits):
            kind = "feature"
            detail = "0x" + String(bits, radix: 16)
        case .batteryLevel(let level):
            kind = "battery"
            detail = "\(level)"
        case .lost(let why):
            kind = "lost"
            reason = why
        case .unavailable(let why):
            kind = "held"
            reason = why
        }
    }
}
