import CertificateFingerprint
import Identity
import RelayContract
import TOMLConfig
import TOMLKit

/// wearbridge-phone.toml: read by the same strict reader as the wearable's (`TOMLFields`): every
/// key known, every value checked, each error a `ConfigError` naming the key.
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
    /// `[relay]`: the PostgreSQL relay for virtual runs; nil when the phone races no one.
    public var relay: Relay?
    /// `[dashboard]`: the field dashboard in a browser (on by default, loopback only).
    public var dashboard = Dashboard()

    /// Where the dashboard listens and how it is guarded beyond loopback.
    public struct Dashboard: Sendable, Equatable {
        public var enabled = true
        public var listenAddress = "127.0.0.1"
        public var port = 7380
        /// HTTPS with the phone's own identity certificate: required beyond loopback.
        public var tls = false
        /// Open event streams at most (a page holds one); more are refused with 503.
        public var maxStreams = 32
    }

    /// Where the relay is and the runner's certificate for it (`scripts/rigs/relay-local.sh` prints these).
    public struct Relay: Sendable, Equatable {
        public var host: String
        public var port = 5432
        public var database = "postgres"
        /// The runner's name: their certificate's CN and their role on the relay.
        public var runner: String
        public var caFile: String
        public var certificateFile: String
        public var keyFile: String
        /// The wearable whose sessions race; may be left out when only one is configured.
        public var wearable: String?
    }

    public init() {}

    /// Reads `path`; every problem names the key, the value and what is allowed.
    public static func load(path: String) throws -> PhoneConfig {
        try read(TOMLDocument.load(path: path), path: path)
    }

    public static func parse(_ text: String, path: String) throws -> PhoneConfig {
        try read(TOMLDocument.parse(text, path: path), path: path)
    }

    private static func read(_ root: TOMLTable, path: String) throws -> PhoneConfig {
        var config = PhoneConfig()
        let fields = TOMLFields(path: path)
        try fields.checkKeys(
            root,
            prefix: "",
            allowed: ["server", "storage", "wearable", "commands", "backfill", "log", "relay", "dashboard"]
        )
        if let dashboard = try fields.table(root, "dashboard") {
            config.dashboard = try Self.dashboard(dashboard, fields)
        }
        if let relay = try fields.table(root, "relay") { config.relay = try Self.relay(relay, fields) }
        if let server = try fields.table(root, "server") {
            try fields.checkKeys(server, prefix: "server.", allowed: ["listen", "port"])
            if let listen = try fields.string(server, "server.listen", "listen") { config.listenAddress = listen }
            if let port = try fields.integer(
                server,
                "server.port",
                "port",
                in: 1...65535,
                allowed: "an integer from 1 to 65535"
            ) {
                config.port = port
            }
        }
        if let storage = try fields.table(root, "storage") {
            try fields.checkKeys(storage, prefix: "storage.", allowed: ["directory"])
            if let directory = try fields.absolutePath(storage, "storage.directory", "directory") {
                config.storageDirectory = directory
            }
        }
        if let commands = try fields.table(root, "commands") {
            try fields.checkKeys(
                commands,
                prefix: "commands.",
                allowed: ["retry_every", "deadline", "valid_for", "stale_after"]
            )
            if let value = try fields.duration(commands, "commands.retry_every", "retry_every", in: 1...600) {
                config.retryEvery = value
            }
            if let value = try fields.duration(commands, "commands.deadline", "deadline", in: 1...86_400) {
                config.commandDeadline = value
            }
            if let value = try fields.duration(commands, "commands.valid_for", "valid_for", in: 1...86_400) {
                config.commandValidFor = value
            }
            if let value = try fields.duration(commands, "commands.stale_after", "stale_after", in: 2...120) {
                config.staleAfter = value
            }
        }
        if let backfill = try fields.table(root, "backfill") {
            try fields.checkKeys(backfill, prefix: "backfill.", allowed: ["chunk_rows"])
            if let rows = try fields.integer(
                backfill,
                "backfill.chunk_rows",
                "chunk_rows",
                in: 1...5000,
                allowed: "an integer from 1 to 5000"
            ) {
                config.backfillChunkRows = rows
            }
        }
        if let value = root["wearable"] {
            guard let array = value.array else {
                throw ConfigError.badValue(
                    path: path,
                    key: "wearable",
                    value: "\(value)",
                    allowed: "[[wearable]] tables"
                )
            }
            for (index, element) in array.enumerated() {
                config.wearables.append(try wearable(element, index: index, known: config.wearables, fields))
            }
        }
        if let level = try fields.logLevel(root) { config.logLevel = level }
        return config
    }

    /// `[dashboard]`: enabled, listen, port, tls, max_streams; every key optional.
    private static func dashboard(_ table: TOMLTable, _ fields: TOMLFields) throws -> Dashboard {
        try fields.checkKeys(
            table,
            prefix: "dashboard.",
            allowed: ["enabled", "listen", "port", "tls", "max_streams"]
        )
        var dashboard = Dashboard()
        if let enabled = try fields.bool(table, "dashboard.enabled", "enabled") { dashboard.enabled = enabled }
        if let listen = try fields.string(table, "dashboard.listen", "listen") { dashboard.listenAddress = listen }
        if let port = try fields.integer(
            table,
            "dashboard.port",
            "port",
            in: 1...65535,
            allowed: "an integer from 1 to 65535"
        ) {
            dashboard.port = port
        }
        if let tls = try fields.bool(table, "dashboard.tls", "tls") { dashboard.tls = tls }
        if let streams = try fields.integer(
            table,
            "dashboard.max_streams",
            "max_streams",
            in: 1...1000,
            allowed: "an integer from 1 to 1000"
        ) {
            dashboard.maxStreams = streams
        }
        return dashboard
    }

    /// `[relay]`: host, runner and the three TLS files are required; port and database have defaults.
    private static func relay(_ table: TOMLTable, _ fields: TOMLFields) throws -> Relay {
        try fields.checkKeys(
            table,
            prefix: "relay.",
            allowed: ["host", "port", "database", "runner", "ca", "certificate", "key", "wearable"]
        )
        func required(_ key: String, _ value: String?) throws -> String {
            guard let value, !value.isEmpty else {
                throw ConfigError.badValue(
                    path: fields.path,
                    key: "relay.\(key)",
                    value: "missing",
                    allowed: "required"
                )
            }
            return value
        }
        var relay = Relay(
            host: try required("host", fields.string(table, "relay.host", "host")),
            runner: try required("runner", fields.string(table, "relay.runner", "runner")),
            caFile: try required("ca", fields.absolutePath(table, "relay.ca", "ca")),
            certificateFile: try required(
                "certificate",
                fields.absolutePath(table, "relay.certificate", "certificate")
            ),
            keyFile: try required("key", fields.absolutePath(table, "relay.key", "key"))
        )
        let runner = relay.runner
        guard RunnerName(runner) != nil else {
            throw ConfigError.badValue(
                path: fields.path,
                key: "relay.runner",
                value: fields.quoted(runner),
                allowed: "a lower-case letter, then lower-case letters, digits or _ (at most 63)"
            )
        }
        if let port = try fields.integer(
            table,
            "relay.port",
            "port",
            in: 1...65535,
            allowed: "an integer from 1 to 65535"
        ) {
            relay.port = port
        }
        if let database = try fields.string(table, "relay.database", "database") { relay.database = database }
        relay.wearable = try fields.string(table, "relay.wearable", "wearable")
        return relay
    }

    /// One `[[wearable]]`: a name and exactly one of fingerprint or certificate, neither seen before.
    private static func wearable(
        _ element: any TOMLValueConvertible,
        index: Int,
        known: [Wearable],
        _ fields: TOMLFields
    ) throws -> Wearable {
        let key = "wearable[\(index)]"
        let path = fields.path
        guard let table = element.table else {
            throw ConfigError.badValue(
                path: path,
                key: key,
                value: "\(element)",
                allowed: "a table with name and fingerprint"
            )
        }
        try fields.checkKeys(table, prefix: "\(key).", allowed: ["name", "fingerprint", "certificate"])
        guard let name = try fields.string(table, "\(key).name", "name"), !name.isEmpty else {
            throw ConfigError.badValue(
                path: path,
                key: "\(key).name",
                value: "(missing)",
                allowed: "the name this wearable is shown by"
            )
        }
        let fingerprint: Fingerprint
        switch (
            try fields.string(table, "\(key).fingerprint", "fingerprint"),
            try fields.string(table, "\(key).certificate", "certificate")
        ) {
        case (let text?, nil):
            guard let parsed = Fingerprint(text) else {
                throw ConfigError.badValue(
                    path: path,
                    key: "\(key).fingerprint",
                    value: fields.quoted(text),
                    allowed: "a SHA-256 fingerprint as `wearbridge identity` prints it (32 hex bytes)"
                )
            }
            fingerprint = parsed
        case (nil, let certificate?):
            do {
                fingerprint = try NodeIdentity.fingerprint(ofCertificateAt: certificate)
            } catch {
                throw ConfigError.badValue(
                    path: path,
                    key: "\(key).certificate",
                    value: fields.quoted(certificate),
                    allowed: "a readable PEM certificate (\(error))"
                )
            }
        default:
            throw ConfigError.conflict(
                path: path,
                keys: ["\(key).fingerprint", "\(key).certificate"],
                reason: "give exactly one of them"
            )
        }
        guard !known.contains(where: { $0.name == name || $0.fingerprint == fingerprint }) else {
            throw ConfigError.conflict(path: path, keys: ["\(key).name", "\(key).fingerprint"], reason: "given twice")
        }
        return Wearable(name: name, fingerprint: fingerprint)
    }
}
