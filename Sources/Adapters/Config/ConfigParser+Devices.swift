import TOMLConfig
import TOMLKit

extension ConfigParser {
    /// `address`, `address_type` and `adapter` of a Bluetooth device's section, read one way for a
    /// strap, a footpod and a treadmill.
    func parseDevice(
        _ table: TOMLTable,
        section: String,
        adapter: String
    ) throws -> (WearbridgeConfig.Strap.Choice, adapter: String) {
        let type = try fields.string(table, "\(section).address_type", "address_type") ?? "random"
        guard type == "random" || type == "public" else {
            throw ConfigError.badValue(
                path: path,
                key: "\(section).address_type",
                value: fields.quoted(type),
                allowed: "\"random\" or \"public\""
            )
        }
        let choice: WearbridgeConfig.Strap.Choice
        switch try fields.string(table, "\(section).address", "address") ?? "none" {
        case "none": choice = .none
        case "first-seen": choice = .firstSeen
        case let address:
            let parts = address.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 6, parts.allSatisfy({ $0.count == 2 && UInt8($0, radix: 16) != nil }) else {
                throw ConfigError.badValue(
                    path: path,
                    key: "\(section).address",
                    value: fields.quoted(address),
                    allowed: "an address like \"F1:F1:F1:F1:F1:F1\" (see `wearbridge scan`), \"first-seen\" or \"none\""
                )
            }
            choice = .address(address.uppercased(), type: type)
        }
        guard let named = try fields.string(table, "\(section).adapter", "adapter") else { return (choice, adapter) }
        guard named.hasPrefix("hci"), Int(named.dropFirst(3)) != nil else {
            throw ConfigError.badValue(
                path: path,
                key: "\(section).adapter",
                value: fields.quoted(named),
                allowed: "an adapter name like \"hci0\""
            )
        }
        return (choice, named)
    }

    /// `[footpod]` or `[treadmill]`.
    func parseSpeedSensor(_ table: TOMLTable, _ section: String) throws -> WearbridgeConfig.SpeedSensor {
        try fields.checkKeys(
            table,
            prefix: "\(section).",
            allowed: ["address", "address_type", "adapter", "silence_after"]
        )
        var sensor = WearbridgeConfig.SpeedSensor()
        (sensor.choice, sensor.adapter) = try parseDevice(table, section: section, adapter: sensor.adapter)
        if let silence = try fields.duration(table, "\(section).silence_after", "silence_after", in: 2...120) {
            sensor.silenceAfter = silence
        }
        return sensor
    }
}
