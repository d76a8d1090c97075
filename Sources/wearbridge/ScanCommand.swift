import ArgumentParser
import Bluetooth

/// `wearbridge scan`: which heart-rate straps are in range, to pick one for the config.
struct ScanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scan",
        abstract: "List heart-rate straps in range (LE scan on the adapter; needs CAP_NET_RAW/ADMIN or root).",
        discussion: "Straps are devices advertising the Heart Rate service 0x180D or a heart-rate appearance."
    )

    @Option(help: "How long to listen, in seconds.")
    var seconds: Double = 10

    @Option(help: "The adapter.")
    var adapter = "hci0"

    @Flag(help: "Every advertiser, not only heart-rate straps.")
    var all = false

    @Flag(help: "One JSON object per strap: address, address_type, name, rssi, services.")
    var json = false

    func validate() throws {
        guard seconds > 0, seconds <= 3600 else { throw ValidationError("--seconds must be in (0, 3600]") }
    }

    func run() throws {
        let heard: [AdvertisingReport]
        do {
            heard = try HCIScanner(adapter: adapter).scan(seconds: seconds)
        } catch {
            StandardError.line("wearbridge scan: \(error)")
            throw ExitCode(1)
        }
        let shown = heard.filter { all || $0.isHeartRateSensor }
        for report in shown {
            if json {
                StandardOutput.line(try JSONLine.encode(ScanJSON(report)))
            } else {
                let rssi = report.rssi.map { "\($0) dBm" } ?? "rssi n/a"
                StandardOutput.line(
                    "\(report.address.text)  \(report.address.kind.rawValue)  \(rssi)  \(report.name ?? "(no name)")"
                )
            }
        }
        if !json && shown.isEmpty { StandardError.line("wearbridge scan: no heart-rate strap heard in \(seconds) s") }
    }
}

private struct ScanJSON: Encodable {
    var address: String
    var address_type: String
    var name: String?
    var rssi: Int?
    var services: [String]
    var heart_rate: Bool

    init(_ report: AdvertisingReport) {
        address = report.address.text
        address_type = report.address.kind.rawValue
        name = report.name
        rssi = report.rssi
        services = report.serviceUUIDs.map { "0x" + String($0, radix: 16, uppercase: true) }
        heart_rate = report.isHeartRateSensor
    }

    func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(address, forKey: .address)
        try container.encode(address_type, forKey: .address_type)
        try container.encode(name, forKey: .name)
        try container.encode(rssi, forKey: .rssi)
        try container.encode(services, forKey: .services)
        try container.encode(heart_rate, forKey: .heart_rate)
    }

    enum Keys: String, CodingKey { case address, address_type, name, rssi, services, heart_rate }
}
