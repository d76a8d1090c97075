import Foundation

/// `wearbridge run` with its own configuration, storage and control socket.
public final class DaemonUnderTest: @unchecked Sendable {
    public let directory: String
    public let configPath: String
    public let socketPath: String
    public var child: ChildProcess?
    private var starts = 0
    private let scope: ProcessScope

    public init(
        directory: String,
        gpsdPort: Int,
        extra: String = "",
        autostart: Bool = true,
        scope: ProcessScope
    ) throws {
        self.directory = directory
        self.scope = scope
        configPath = "\(directory)/wearbridge.toml"
        socketPath = "\(directory)/control.sock"
        try FileManager.default.createDirectory(atPath: "\(directory)/data", withIntermediateDirectories: true)
        let text = """
            [gpsd]
            host = "127.0.0.1"
            port = \(gpsdPort)
            [storage]
            directory = "\(directory)/data"
            [control]
            socket = "\(socketPath)"
            [session]
            autostart = \(autostart)
            [cues]
            enabled = false
            \(extra)
            """
        try text.write(toFile: configPath, atomically: true, encoding: .utf8)
    }

    /// Starts the daemon and waits until its control socket answers.
    public func start(environment: [String: String]? = nil) async throws {
        starts += 1
        let child = try ChildProcess(
            Command.wearbridge,
            ["run", "--config", configPath, "--log-level", "debug"],
            environment: environment,
            directory: directory,
            name: "daemon\(starts)",
            scope: scope
        )
        self.child = child
        guard try await eventually(timeout: 20, { try ctl("status").status == 0 }) else {
            throw HarnessError("the daemon did not come up within 20 s: \(child.stderr)")
        }
    }

    public func ctl(_ arguments: String...) throws -> (status: Int32, out: String, err: String) {
        try runCommand(Command.wearbridge, ["ctl"] + arguments + ["--json", "--socket", socketPath])
    }

    /// The whole JSON reply of a `ctl` command.
    public func reply(_ arguments: String...) throws -> [String: Any] {
        let result = try runCommand(Command.wearbridge, ["ctl"] + arguments + ["--json", "--socket", socketPath])
        return try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any] ?? [:]
    }

    public func status() throws -> [String: Any] {
        let result = try ctl("status")
        let reply = try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any] ?? [:]
        return reply["status"] as? [String: Any] ?? [:]
    }

    public func sessions() throws -> [[String: Any]] {
        let result = try runCommand(Command.wearbridge, ["sessions", "--json", "--storage", "\(directory)/data"])
        return try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [[String: Any]] ?? []
    }

    public func show(_ id: String) throws -> [String: Any] {
        let result = try runCommand(Command.wearbridge, ["show", id, "--json", "--storage", "\(directory)/data"])
        return try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any] ?? [:]
    }

    /// Waits until no fix has arrived for `quiet` seconds: gpsfake has played its log.
    public func waitForQuiet(_ quiet: Double = 2, timeout: Double = 120) async throws -> Bool {
        try await eventually(timeout: timeout, every: 0.5) {
            let gps = try status()["gps"] as? [String: Any]
            return (gps?["last_fix_age_s"] as? Double ?? 0) > quiet
        }
    }

    public func stop() async { await child?.stop() }
}

/// gpsfake playing a recording of data/ and the daemon up beside it: the common
/// start of a test on a live run.
public func liveRun(
    _ recording: String,
    cycle: Double = 0.008,
    directory: String,
    autostart: Bool = true,
    scope: ProcessScope
) async throws -> (gpsd: FakeGPSD, daemon: DaemonUnderTest) {
    let gpsd = try FakeGPSD("\(recordings)/\(recording)", cycle: cycle, directory: directory, scope: scope)
    let daemon = try DaemonUnderTest(
        directory: directory,
        gpsdPort: gpsd.port,
        autostart: autostart,
        scope: scope
    )
    guard await gpsd.waitUntilListening() else { throw HarnessError("gpsfake's gpsd did not listen within 15 s") }
    try await daemon.start()
    return (gpsd, daemon)
}
