import ArgumentParser
import Bluetooth

/// `wearbridge scan`: which straps, footpods and treadmills are in range, to pick them for the config.
struct ScanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scan",
        abstract:
            "List straps, footpods and treadmills in range (through bluetoothd, or a raw LE scan needing CAP_NET_RAW/ADMIN).",
        discussion: """
            Straps advertise Heart Rate 0x180D or a heart-rate appearance; footpods Running Speed and \
            Cadence 0x1814 or a running/walking sensor's appearance; treadmills Fitness Machine 0x1826.
            """
    )

    @Option(help: "How long to listen, in seconds.")
    var seconds: Double = 10

    @Option(help: "The adapter.")
    var adapter = "hci0"

    @Option(help: "auto (through bluetoothd when it runs), bluez or kernel.")
    var stack: BluetoothPath = .auto

    @Flag(help: "Every advertiser, not only straps, footpods and treadmills.")
    var all = false

    @Flag(help: "One JSON object per device: address, address_type, name, rssi, services, type.")
    var json = false

    func validate() throws {
        guard seconds > 0, seconds <= 3600 else { throw ValidationError("--seconds must be in (0, 3600]") }
    }

    func run() throws {
        let heard: [AdvertisingReport]
        do {
            heard = try stack.scan(adapter: adapter, seconds: seconds)
        } catch {
            StandardError.line("wearbridge scan: \(error)")
            throw ExitCode(1)
        }
        let shown = heard.filter { all || $0.sensorType != nil }
        for report in shown {
            if json {
                StandardOutput.line(try JSONLine.encode(ScanJSON(report)))
            } else {
                let rssi = report.rssi.map { "\($0) dBm" } ?? "rssi n/a"
                StandardOutput.line(
                    "\(report.address.text)  \(report.address.kind.rawValue)  \(report.sensorType ?? "other")  \(rssi)  "
                        + (report.name ?? "(no name)")
                )
            }
        }
        if !json && shown.isEmpty {
            StandardError.line("wearbridge scan: no strap, footpod or treadmill heard in \(seconds) s")
        }
    }
}

private struct ScanJSON: Encodable {
    var address: String
    var address_type: String
    var name: String?
    var rssi: Int?
    var services: [String]
    var heart_rate: Bool
    /// heart_rate, footpod, treadmill, or null.
    var type: String?

    init(_ report: AdvertisingReport) {
        address = report.address.text
        address_type = report.address.kind.rawValue
        name = report.name
        rssi = report.rssi
        services = report.serviceUUIDs.map { "0x" + String($0, radix: 16, uppercase: true) }
        heart_rate = report.isHeartRateSensor
        type = report.sensorType
    }

    func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(address, forKey: .address)
        try container.encode(address_type, forKey: .address_type)
        try container.encode(name, forKey: .name)
        try container.encode(rssi, forKey: .rssi)
        try container.encode(services, forKey: .services)
        try container.encode(heart_rate, forKey: .heart_rate)
        try container.encode(type, forKey: .type)
    }

    enum Keys: String, CodingKey { case address, address_type, name, rssi, services, heart_rate, type }
}

extension BluetoothPath: ExpressibleByArgument {}
