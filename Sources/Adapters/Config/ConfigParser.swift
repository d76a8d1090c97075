import CertificateFingerprint
import Energy
import Foundation
import Gait
import TOMLConfig
import TOMLKit
import TrackCore

/// Reads wearbridge.toml strictly: every key known, every value checked, nothing silently ignored.
public struct ConfigParser {
    public let path: String

    let fields: TOMLFields

    public init(path: String) {
        self.path = path
        fields = TOMLFields(path: path)
    }

    /// Reads the file at `path`; a missing file is an error (the caller decides about defaults).
    public func load() throws -> WearbridgeConfig {
        try read(TOMLDocument.load(path: path))
    }

    public func parse(_ text: String) throws -> WearbridgeConfig {
        try read(TOMLDocument.parse(text, path: path))
    }

    private func read(_ root: TOMLTable) throws -> WearbridgeConfig {
        var config = WearbridgeConfig()
        try fields.checkKeys(
            root,
            prefix: "",
            allowed: [
                "gpsd", "storage", "control", "session", "bluetooth", "strap", "footpod", "treadmill", "phone", "cues",
                "barometer", "imu", "wearer", "log",
            ]
        )
        if let gpsd = try fields.table(root, "gpsd") {
            try fields.checkKeys(gpsd, prefix: "gpsd.", allowed: ["host", "port", "socket", "lost_after"])
            if let socket = try fields.string(gpsd, "gpsd.socket", "socket") {
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
                        value: fields.quoted(socket),
                        allowed: "an absolute path"
                    )
                }
                config.gpsd = .unix(path: socket)
            } else {
                let host = try fields.string(gpsd, "gpsd.host", "host") ?? "127.0.0.1"
                guard !host.isEmpty, !host.contains(where: \.isWhitespace) else {
                    throw ConfigError.badValue(
                        path: path,
                        key: "gpsd.host",
                        value: fields.quoted(host),
                        allowed: "a host name or address"
                    )
                }
                let port =
                    try fields.integer(gpsd, "gpsd.port", "port", in: 1...65535, allowed: "an integer from 1 to 65535")
                    ?? 2947
                config.gpsd = .tcp(host: host, port: port)
            }
            if let lost = try fields.duration(gpsd, "gpsd.lost_after", "lost_after", in: 1...600) {
                config.gpsLostAfter = lost
            }
        }
        if let storage = try fields.table(root, "storage") {
            try fields.checkKeys(storage, prefix: "storage.", allowed: ["directory"])
            if let directory = try fields.absolutePath(storage, "storage.directory", "directory") {
                config.storageDirectory = directory
            }
        }
        if let control = try fields.table(root, "control") {
            try fields.checkKeys(control, prefix: "control.", allowed: ["socket", "group"])
            if let socket = try fields.string(control, "control.socket", "socket") {
                guard socket.hasPrefix("/"), socket.utf8.count < 108 else {
                    throw ConfigError.badValue(
                        path: path,
                        key: "control.socket",
                        value: fields.quoted(socket),
                        allowed: "an absolute path shorter than 108 bytes (a Unix socket address)"
                    )
                }
                config.controlSocket = socket
            }
            if let group = try fields.string(control, "control.group", "group") {
                guard !group.isEmpty, group.allSatisfy({ $0.isLetter || $0.isNumber || "_-.".contains($0) }) else {
                    throw ConfigError.badValue(
                        path: path,
                        key: "control.group",
                        value: fields.quoted(group),
                        allowed: "a group name"
                    )
                }
                config.controlGroup = group
            }
        }
        if let session = try fields.table(root, "session") {
            try fields.checkKeys(
                session,
                prefix: "session.",
                allowed: ["activity", "autostart", "abandon_after", "indoor"]
            )
            if let indoor = try fields.bool(session, "session.indoor", "indoor") { config.indoor = indoor }
            if let activity = try fields.choice(session, "session.activity", "activity", as: Activity.self) {
                config.activity = activity
            }
            if let flag = try fields.bool(session, "session.autostart", "autostart") { config.autostart = flag }
            if let abandon = try fields.duration(
                session,
                "session.abandon_after",
                "abandon_after",
                in: 60...(30 * 86400)
            ) {
                config.abandonAfter = abandon
            }
        }
        if let bluetooth = try fields.table(root, "bluetooth") {
            try fields.checkKeys(bluetooth, prefix: "bluetooth.", allowed: ["stack"])
            if let stack = try fields.choice(bluetooth, "bluetooth.stack", "stack", as: BluetoothStack.self) {
                config.bluetoothStack = stack
            }
        }
        if let strap = try fields.table(root, "strap") { config.strap = try parseStrap(strap) }
        if let footpod = try fields.table(root, "footpod") { config.footpod = try parseSpeedSensor(footpod, "footpod") }
        if let treadmill = try fields.table(root, "treadmill") {
            config.treadmill = try parseSpeedSensor(treadmill, "treadmill")
        }
        if let phone = try fields.table(root, "phone") { config.phone = try parsePhone(phone) }
        if let cues = try fields.table(root, "cues") { config.cues = try parseCues(cues) }
        if let barometer = try fields.table(root, "barometer") { config.barometer = try parseBarometer(barometer) }
        if let wearer = try fields.table(root, "wearer") { config.wearer = try parseWearer(wearer) }
        if let imu = try fields.table(root, "imu") { config.imu = try parseIMU(imu) }
        if let level = try fields.logLevel(root) { config.logLevel = level }
        return config
    }

    private func parsePhone(_ table: TOMLTable) throws -> WearbridgeConfig.Phone {
        try fields.checkKeys(
            table,
            prefix: "phone.",
            allowed: ["address", "port", "fingerprint", "certificate", "name", "stale_after"]
        )
        guard let host = try fields.string(table, "phone.address", "address"), !host.isEmpty,
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
            try fields.integer(table, "phone.port", "port", in: 1...65535, allowed: "an integer from 1 to 65535")
            ?? 7370
        let trust: WearbridgeConfig.Phone.Trust
        switch (
            try fields.string(table, "phone.fingerprint", "fingerprint"),
            try fields.string(table, "phone.certificate", "certificate")
        ) {
        case (let fingerprint?, nil):
            guard let parsed = Fingerprint(fingerprint) else {
                throw ConfigError.badValue(
                    path: path,
                    key: "phone.fingerprint",
                    value: fields.quoted(fingerprint),
                    allowed: "a SHA-256 fingerprint as `wearbridge-phone identity` prints it (32 hex bytes)"
                )
            }
            trust = .fingerprint(parsed)
        case (nil, let certificate?):
            guard certificate.hasPrefix("/") else {
                throw ConfigError.badValue(
                    path: path,
                    key: "phone.certificate",
                    value: fields.quoted(certificate),
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
        var name = try fields.string(table, "phone.name", "name") ?? ProcessInfo.processInfo.hostName
        if name.isEmpty { name = "wearable" }
        var phone = WearbridgeConfig.Phone(host: host, port: port, trust: trust, name: name)
        if let stale = try fields.duration(table, "phone.stale_after", "stale_after", in: 2...120) {
            phone.staleAfter = stale
        }
        return phone
    }

    private func parseIMU(_ table: TOMLTable) throws -> WearbridgeConfig.IMU {
        var imu = WearbridgeConfig.IMU()
        try fields.checkKeys(table, prefix: "imu.", allowed: ["device", "placement", "rate"])
        if let device = try fields.string(table, "imu.device", "device") {
            switch device {
            case "off": imu.choice = .off
            case "auto": imu.choice = .auto
            default:
                guard !device.isEmpty, !device.contains(where: \.isWhitespace) else {
                    throw ConfigError.badValue(
                        path: path,
                        key: "imu.device",
                        value: fields.quoted(device),
                        allowed: "auto, off, an IIO driver's name (bmi160) or a device's sysfs path"
                    )
                }
                imu.choice = .named(device)
            }
        }
        if let placement = try fields.choice(table, "imu.placement", "placement", as: Placement.self) {
            imu.placement = placement
        }
        if let rate = try fields.number(table, "imu.rate", "rate", in: WearbridgeConfig.IMU.rates) { imu.rate = rate }
        return imu
    }

    private func parseWearer(_ table: TOMLTable) throws -> WearbridgeConfig.Wearer {
        var wearer = WearbridgeConfig.Wearer()
        try fields.checkKeys(table, prefix: "wearer.", allowed: ["body_mass_kg", "load_kg", "walking_model"])
        wearer.bodyMass = try fields.number(table, "wearer.body_mass_kg", "body_mass_kg", in: Carriage.bodyMassRange)
        wearer.load = try fields.number(table, "wearer.load_kg", "load_kg", in: Carriage.loadRange) ?? 0
        if let model = try fields.choice(table, "wearer.walking_model", "walking_model", as: WalkingModel.self) {
            wearer.walkingModel = model
        }
        return wearer
    }

    private func parseBarometer(_ table: TOMLTable) throws -> WearbridgeConfig.Barometer {
        var barometer = WearbridgeConfig.Barometer()
        try fields.checkKeys(table, prefix: "barometer.", allowed: ["device", "interval"])
        if let device = try fields.string(table, "barometer.device", "device") {
            switch device {
            case "off": barometer.choice = .off
            case "auto": barometer.choice = .auto
            default:
                guard !device.isEmpty, !device.contains(where: \.isWhitespace) else {
                    throw ConfigError.badValue(
                        path: path,
                        key: "barometer.device",
                        value: fields.quoted(device),
                        allowed: "auto, off, an IIO driver's name (bmp280) or a device's sysfs path"
                    )
                }
                barometer.choice = .named(device)
            }
        }
        if let interval = try fields.number(table, "barometer.interval", "interval", in: 0.1...10) {
            barometer.interval = interval
        }
        return barometer
    }

    private func parseStrap(_ table: TOMLTable) throws -> WearbridgeConfig.Strap {
        var strap = WearbridgeConfig.Strap()
        try fields.checkKeys(
            table,
            prefix: "strap.",
            allowed: ["address", "address_type", "adapter", "silence_after", "max_heart_rate"]
        )
        (strap.choice, strap.adapter) = try parseDevice(table, section: "strap", adapter: strap.adapter)
        if let silence = try fields.duration(table, "strap.silence_after", "silence_after", in: 2...120) {
            strap.silenceAfter = silence
        }
        if let max = try fields.integer(
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
}
