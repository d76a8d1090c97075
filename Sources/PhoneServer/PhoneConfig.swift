import Foundation
import Identity
import TOMLKit

/// wearbridge-phone.toml: strict like the wearable's (every key known, every value checked).
public struct PhoneConfig: Sendable {
    public struct Wearable: Sendable, Equatable {
        public var name: String
        public var fingerprint: Fingerprint
    }

    public var listenAddress = "0.0.0.0"
    public var port = 7370
    public var storageDirectory = "/var/lib/wearbridge-phone"
    public var wearables: [Wearable] = []
    /// A command not answered is sent again this often (s).
    public var retryEvery: Double = 8
    /// A command not answered by then is given up ("not answered") (s).
    public var commandDeadline: Double = 120
    /// How long a command stays valid after it is issued (s): the wearable refuses it as expired after.
    public var commandValidFor: Double = 60
    /// No traffic for this long is a stale link (s).
    public var staleAfter: Double = 5
    /// Rows per backfill chunk: each chunk is one request, one answer and one commit.
    public var backfillChunkRows = 500
    public var logLevel = "info"

    public init() {}

    /// Reads `path`; every problem names the key, the value and what is allowed.
    public static func load(path: String) throws(PhoneConfigError) -> PhoneConfig {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw PhoneConfigError(path: path, "cannot read it: \(error.localizedDescription)")
        }
        return try parse(text, path: path)
    }

    public static func parse(_ text: String, path: String) throws(PhoneConfigError) -> PhoneConfig {
        let root: TOMLTable
        do {
            root = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            throw PhoneConfigError(
                path: path,
                "line \(error.source.begin.line): not valid TOML: \(error.description)"
            )
        } catch {
            throw PhoneConfigError(path: path, "not valid TOML: \(error)")
        }
        var config = PhoneConfig()
        let reader = Reader(path: path)
        try reader.keys(root, "", ["server", "storage", "wearable", "commands", "backfill", "log"])
        if let backfill = try reader.table(root, "backfill") {
            try reader.keys(backfill, "backfill.", ["chunk_rows"])
            if let rows = try reader.number(backfill, "backfill.chunk_rows", "chunk_rows", 1...5000) {
                config.backfillChunkRows = Int(rows)
            }
        }
        if let server = try reader.table(root, "server") {
            try reader.keys(server, "server.", ["listen", "port"])
            if let listen = try reader.string(server, "server.listen", "listen") { config.listenAddress = listen }
            if let port = try reader.number(server, "server.port", "port", 1...65535) { config.port = Int(port) }
        }
        if let storage = try reader.table(root, "storage") {
            try reader.keys(storage, "storage.", ["directory"])
            if let directory = try reader.string(storage, "storage.directory", "directory") {
                guard directory.hasPrefix("/") else {
                    throw PhoneConfigError(
                        path: path,
                        "storage.directory = \"\(directory)\": expected an absolute path"
                    )
                }
                config.storageDirectory = directory
            }
        }
        if let commands = try reader.table(root, "commands") {
            try reader.keys(commands, "commands.", ["retry_every", "deadline", "valid_for", "stale_after"])
            if let value = try reader.number(commands, "commands.retry_every", "retry_every", 1...600) {
                config.retryEvery = value
            }
            if let value = try reader.number(commands, "commands.deadline", "deadline", 1...86_400) {
                config.commandDeadline = value
            }
            if let value = try reader.number(commands, "commands.valid_for", "valid_for", 1...86_400) {
                config.commandValidFor = value
            }
            if let value = try reader.number(commands, "commands.stale_after", "stale_after", 2...120) {
                config.staleAfter = value
            }
        }
        if let value = root["wearable"] {
            guard let array = value.array else {
                throw PhoneConfigError(path: path, "wearable: expected [[wearable]] tables")
            }
            for (index, element) in array.enumerated() {
                let key = "wearable[\(index)]"
                guard let table = element.table else {
                    throw PhoneConfigError(path: path, "\(key): expected a table with name and fingerprint")
                }
                try reader.keys(table, "\(key).", ["name", "fingerprint", "certificate"])
                guard let name = try reader.string(table, "\(key).name", "name"), !name.isEmpty else {
                    throw PhoneConfigError(path: path, "\(key).name: required (how this wearable is shown)")
                }
                let fingerprint: Fingerprint
                switch (
                    try reader.string(table, "\(key).fingerprint", "fingerprint"),
                    try reader.string(table, "\(key).certificate", "certificate")
                ) {
                case (let text?, nil):
                    guard let parsed = Fingerprint(text) else {
                        throw PhoneConfigError(
                            path: path,
                            "\(key).fingerprint = \"\(text)\": expected a SHA-256 fingerprint (32 hex bytes)"
                        )
                    }
                    fingerprint = parsed
                case (nil, let certificate?):
                    do {
                        fingerprint = try NodeIdentity.fingerprint(ofCertificateAt: certificate)
                    } catch {
                        throw PhoneConfigError(path: path, "\(key).certificate: \(error)")
                    }
                default:
                    throw PhoneConfigError(path: path, "\(key): give exactly one of fingerprint or certificate")
                }
                guard !config.wearables.contains(where: { $0.name == name || $0.fingerprint == fingerprint }) else {
                    throw PhoneConfigError(path: path, "\(key): name or fingerprint given twice")
                }
                config.wearables.append(Wearable(name: name, fingerprint: fingerprint))
            }
        }
        if let log = try reader.table(root, "log") {
            try reader.keys(log, "log.", ["level"])
            if let level = try reader.string(log, "log.level", "level") {
                let levels = ["trace", "debug", "info", "notice", "warning", "error", "critical"]
                guard levels.contains(level) else {
                    throw PhoneConfigError(
                        path: path,
                        "log.level = \"\(level)\": expected one of \(levels.joined(separator: ", "))"
                    )
                }
                config.logLevel = level
            }
        }
        return config
    }

    private struct Reader {
        let path: String

        func keys(_ table: TOMLTable, _ prefix: String, _ allowed: [String]) throws(PhoneConfigError) {
            for key in table.keys where !allowed.contains(key) {
                throw PhoneConfigError(
                    path: path,
                    "unknown key \(prefix)\(key); allowed here: \(allowed.joined(separator: ", "))"
                )
            }
        }

        func table(_ root: TOMLTable, _ key: String) throws(PhoneConfigError) -> TOMLTable? {
            guard let value = root[key] else { return nil }
            guard let table = value.table else {
                throw PhoneConfigError(path: path, "\(key): expected a table [\(key)]")
            }
            return table
        }

        func string(_ table: TOMLTable, _ name: String, _ key: String) throws(PhoneConfigError) -> String? {
            guard let value = table[key] else { return nil }
            guard let text = value.string else {
                throw PhoneConfigError(path: path, "\(name) = \(value): expected a string")
            }
            return text
        }

        func number(
            _ table: TOMLTable,
            _ name: String,
            _ key: String,
            _ range: ClosedRange<Double>
        ) throws(PhoneConfigError) -> Double? {
            guard let value = table[key] else { return nil }
            let number = value.int.map(Double.init) ?? value.double
            guard let number, range.contains(number) else {
                throw PhoneConfigError(
                    path: path,
                    "\(name) = \(value): expected a number from \(range.lowerBound) to \(range.upperBound)"
                )
            }
            return number
        }
    }
}

/// A configuration that stops start-up, naming the file and the key.
public struct PhoneConfigError: Error, CustomStringConvertible {
    public var description: String

    init(path: String, _ problem: String) {
        description = "\(path): \(problem)"
    }
}
