import Foundation
import TOMLKit
import TrackCore

/// Reads wearbridge.toml strictly: every key known, every value checked, nothing silently ignored.
public struct ConfigParser {
    public let path: String

    public init(path: String) {
        self.path = path
    }

    /// Reads the file at `path`; a missing file is an error (the caller decides about defaults).
    public func load() throws -> WearbridgeConfig {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw ConfigError.unreadable(path: path, reason: (error as NSError).localizedDescription)
        }
        return try parse(text)
    }

    public func parse(_ text: String) throws -> WearbridgeConfig {
        let root: TOMLTable
        do {
            root = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            throw ConfigError.syntax(
                path: path,
                line: error.source.begin.line,
                column: error.source.begin.column,
                reason: error.description
            )
        }
        var config = WearbridgeConfig()
        try checkKeys(root, prefix: "", allowed: ["gpsd", "storage", "control", "session", "strap", "phone", "log"])
        if let gpsd = try table(root, "gpsd") {
            try checkKeys(gpsd, prefix: "gpsd.", allowed: ["host", "port", "socket", "lost_after"])
            if let socket = try string(gpsd, "gpsd.socket", "socket") {
                if gpsd["host"] != nil || gpsd["port"] != nil {
                    throw ConfigError.conflict(
                        path: path,
                        keys: ["gpsd.socket", "gpsd.host/port"],
                        reason: "give either a Unix socket or host and port"
                    )
                }
                guard socket.hasPrefix("/") else {
                    throw ConfigError.badValue(
                        path: path,
                        key: "gpsd.socket",
                        value: quoted(socket),
                        allowed: "an absolute path"
                    )
                }
                config.gpsd = .unix(path: socket)
            } else {
                let host = try string(gpsd, "gpsd.host", "host") ?? "127.0.0.1"
                guard !host.isEmpty, !host.contains(where: \.isWhitespace) else {
                    throw ConfigError.badValue(
                        path: path,
                        key: "gpsd.host",
                        value: quoted(host),
                        allowed: "a host name or address"
                    )
                }
                let port =
                    try integer(gpsd, "gpsd.port", "port", in: 1...65535, allowed: "an integer from 1 to 65535") ?? 2947
                config.gpsd = .tcp(host: host, port: port)
            }
            if let lost = try duration(gpsd, "gpsd.lost_after", "lost_after", in: 1...600) {
                config.gpsLostAfter = lost
            }
        }
        if let storage = try table(root, "storage") {
            try checkKeys(storage, prefix: "storage.", allowed: ["directory"])
            if let directory = try string(storage, "storage.directory", "directory") {
                guard directory.hasPrefix("/") else {
                    throw ConfigError.badValue(
                        path: path,
                        key: "storage.directory",
                        value: quoted(directory),
                        allowed: "an absolute path"
                    )
                }
                config.storageDirectory = directory
            }
        }
        if let control = try table(root, "control") {
            try checkKeys(control, prefix: "control.", allowed: ["socket", "group"])
            if let socket = try string(control, "control.socket", "socket") {
                guard socket.hasPrefix("/"), socket.utf8.count < 108 else {
                    throw ConfigError.badValue(
                        path: path,
                        key: "control.socket",
                        value: quoted(socket),
                        allowed: "an absolute path shorter than 108 bytes (a Unix socket address)"
                    )
                }
                config.controlSocket = socket
            }
            if let group = try string(control, "control.group", "group") {
                guard !group.isEmpty, group.allSatisfy({ $0.isLetter || $0.isNumber || "_-.".contains($0) }) else {
                    throw ConfigError.badValue(
                        path: path,
                        key: "control.group",
                        value: quoted(group),
                        allowed: "a group name"
                    )
                }
                config.controlGroup = group
            }
        }
        if let session = try table(root, "session") {
            try checkKeys(session, prefix: "session.", allowed: ["activity", "autostart", "abandon_after"])
            if let name = try string(session, "session.activity", "activity") {
                guard let activity = Activity(rawValue: name) else {
                    throw ConfigError.badValue(
                        path: path,
                        key: "session.activity",
                        value: quoted(name),
                        allowed: "one of " + Activity.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
                    )
                }
                config.activity = activity
            }
            if let value = session["autostart"] {
                guard let flag = value.bool else {
                    throw ConfigError.badValue(
                        path: path,
                        key: "session.autostart",
                        value: "\(value)",
                        allowed: "true or false"
                    )
                }
                config.autostart = flag
            }
            if let abandon = try duration(session, "session.abandon_after", "abandon_after", in: 60...(30 * 86400)) {
                config.abandonAfter = abandon
            }
        }
        if let strap = try table(root, "strap") { config.strap = try parseStrap(strap) }
        if let phone = try table(root, "phone") { config.phone = try parsePhone(phone) }
        if let log = try table(root, "log") {
            try checkKeys(log, prefix: "log.", allowed: ["level"])
            if let level = try string(log, "log.level", "level") {
                let levels = ["trace", "debug", "info", "notice", "warning", "error", "critical"]
                guard levels.contains(level) else {
                    throw ConfigError.badValue(
                        path: path,
                        key: "log.level",
                        value: quoted(level),
                        allowed: "one of " + levels.joined(separator: ", ")
                    )
                }
                config.logLevel = level
            }
        }
        return config
    }

    private func parsePhone(_ table: TOMLTable) throws -> WearbridgeConfig.Phone {
        try checkKeys(
            table,
            prefix: "phone.",
            allowed: ["address", "port", "fingerprint", "certificate", "name", "stale_after"]
        )
        guard let host = try string(table, "phone.address", "address"), !host.isEmpty,
            !host.contains(where: \.isWhitespace)
        else {
            throw ConfigError.badValue(
                path: path,
                key: "phone.address",
                value: table["address"].map { "\($0)" } ?? "(missing)",
                allowed: "the phone's host name or IP address"
            )
        }
        let port =
            try integer(table, "phone.port", "port", in: 1...65535, allowed: "an integer from 1 to 65535") ?? 7370
        let trust: WearbridgeConfig.Phone.Trust
        switch (
            try string(table, "phone.fingerprint", "fingerprint"), try string(table, "phone.certificate", "certificate")
        ) {
        case (let fingerprint?, nil):
            let hex = fingerprint.lowercased().replacingOccurrences(of: "sha256:", with: "").filter { $0 != ":" }
            guard hex.count == 64, hex.allSatisfy(\.isHexDigit) else {
                throw ConfigError.badValue(
                    path: path,
                    key: "phone.fingerprint",
                    value: quoted(fingerprint),
                    allowed: "a SHA-256 fingerprint as `wearbridge-phone identity` prints it (32 hex bytes)"
                )
            }
            trust = .fingerprint(fingerprint)
        case (nil, let certificate?):
            guard certificate.hasPrefix("/") else {
                throw ConfigError.badValue(
                    path: path,
                    key: "phone.certificate",
                    value: quoted(certificate),
                    allowed: "an absolute path to the phone's PEM certificate"
                )
            }
            trust = .certificate(path: certificate)
        case (nil, nil):
            throw ConfigError.badValue(
                path: path,
                key: "phone.fingerprint",
                value: "(missing)",
                allowed: "the phone's certificate fingerprint, or phone.certificate: nothing is trusted by default"
            )
        case (.some, .some):
            throw ConfigError.conflict(
                path: path,
                keys: ["phone.fingerprint", "phone.certificate"],
                reason: "pin the phone by one of them"
            )
        }
        var name = try string(table, "phone.name", "name") ?? ProcessInfo.processInfo.hostName
        if name.isEmpty { name = "wearable" }
        var phone = WearbridgeConfig.Phone(host: host, port: port, trust: trust, name: name)
        if let stale = try duration(table, "phone.stale_after", "stale_after", in: 2...120) { phone.staleAfter = stale }
        return phone
    }

    private func parseStrap(_ table: TOMLTable) throws -> WearbridgeConfig.Strap {
        var strap = WearbridgeConfig.Strap()
        try checkKeys(
            table,
            prefix: "strap.",
            allowed: ["address", "address_type", "adapter", "silence_after", "max_heart_rate"]
        )
        let type = try string(table, "strap.address_type", "address_type") ?? "random"
        guard type == "random" || type == "public" else {
            throw ConfigError.badValue(
                path: path,
                key: "strap.address_type",
                value: quoted(type),
                allowed: "\"random\" or \"public\""
            )
        }
        switch try string(table, "strap.address", "address") ?? "none" {
        case "none": strap.choice = .none
        case "first-seen": strap.choice = .firstSeen
        case let address:
            let parts = address.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 6, parts.allSatisfy({ $0.count == 2 && UInt8($0, radix: 16) != nil }) else {
                throw ConfigError.badValue(
                    path: path,
                    key: "strap.address",
                    value: quoted(address),
                    allowed: "an address like \"F1:F1:F1:F1:F1:F1\" (see `wearbridge scan`), \"first-seen\" or \"none\""
                )
            }
            strap.choice = .address(address.uppercased(), type: type)
        }
        if let adapter = try string(table, "strap.adapter", "adapter") {
            guard adapter.hasPrefix("hci"), Int(adapter.dropFirst(3)) != nil else {
                throw ConfigError.badValue(
                    path: path,
                    key: "strap.adapter",
                    value: quoted(adapter),
                    allowed: "an adapter name like \"hci0\""
                )
            }
            strap.adapter = adapter
        }
        if let silence = try duration(table, "strap.silence_after", "silence_after", in: 2...120) {
            strap.silenceAfter = silence
        }
        if let max = try integer(
            table,
            "strap.max_heart_rate",
            "max_heart_rate",
            in: 100...250,
            allowed: "beats per minute from 100 to 250"
        ) {
            strap.maxHeartRate = max
        }
        return strap
    }

    // MARK: Typed access, each failure naming its key

    private func checkKeys(_ table: TOMLTable, prefix: String, allowed: [String]) throws {
        for key in table.keys.sorted() where !allowed.contains(key) {
            throw ConfigError.unknownKey(path: path, key: prefix + key, allowed: allowed)
        }
    }

    private func table(_ root: TOMLTable, _ key: String) throws -> TOMLTable? {
        guard let value = root[key] else { return nil }
        guard let table = value.table else {
            throw ConfigError.badValue(path: path, key: key, value: "\(value)", allowed: "a table [\(key)]")
        }
        return table
    }

    private func string(_ table: TOMLTable, _ name: String, _ key: String) throws -> String? {
        guard let value = table[key] else { return nil }
        guard let string = value.string else {
            throw ConfigError.badValue(path: path, key: name, value: "\(value)", allowed: "a string")
        }
        return string
    }

    private func integer(
        _ table: TOMLTable,
        _ name: String,
        _ key: String,
        in range: ClosedRange<Int>,
        allowed: String
    ) throws -> Int? {
        guard let value = table[key] else { return nil }
        guard let number = value.int, range.contains(number) else {
            throw ConfigError.badValue(path: path, key: name, value: "\(value)", allowed: allowed)
        }
        return number
    }

    /// Seconds as a number, or a string with a unit: "90s", "15m", "6h", "2d".
    private func duration(
        _ table: TOMLTable,
        _ name: String,
        _ key: String,
        in range: ClosedRange<Double>
    ) throws -> Double? {
        guard let value = table[key] else { return nil }
        let allowed =
            "seconds (a number) or a string like \"90s\", \"15m\", \"6h\", \"2d\", "
            + "from \(Int(range.lowerBound)) s to \(Int(range.upperBound)) s"
        var seconds: Double?
        if let number = value.int {
            seconds = Double(number)
        } else if let number = value.double {
            seconds = number
        } else if let text = value.string {
            seconds = Self.parseDuration(text)
        }
        guard let seconds, seconds.isFinite, range.contains(seconds) else {
            throw ConfigError.badValue(path: path, key: name, value: "\(value)", allowed: allowed)
        }
        return seconds
    }

    static func parseDuration(_ text: String) -> Double? {
        let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600, "d": 86400]
        guard let unit = text.last, let scale = units[unit], let number = Double(text.dropLast()), number >= 0 else {
            return nil
        }
        return number * scale
    }

    private func quoted(_ text: String) -> String { "\"\(text)\"" }
}
