import Foundation
import GPSD
import Harness
import Store
import Testing
import TrackCore

#if canImport(Glibc)
import Glibc
#endif
#if canImport(Glibc)
import Glibc
#endif

/// The built `wearbridge` executable, beside the test bundle.
let wearbridgeBinary = Command.wearbridge

/// A real gpsd fed by gpsfake on a free port, as in gpsd's own regression tests.
final class FakeGPSD: @unchecked Sendable {
    let port: Int
    let child: ChildProcess

    /// `cycle` is gpsfake's delay between sentences: 0.004 plays a 1 Hz recording about 60x fast.
    init(
        _ log: String,
        port: Int? = nil,
        cycle: Double,
        directory: String,
        name: String = "gpsfake",
        scope: ProcessScope
    ) throws {
        self.port = port ?? Loopback.freePort()
        child = try ChildProcess(
            "/usr/bin/gpsfake",
            ["-1", "-q", "-W", "600", "-c", "\(cycle)", "-P", "\(self.port)", log],
            directory: directory,
            name: name,
            scope: scope
        )
    }

    /// Waits until gpsd accepts connections: gpsfake starts it asynchronously.
    func waitUntilListening() async -> Bool {
        let port = self.port
        return await eventually(timeout: 15) { Loopback.isListening(port: port) }
    }

    func stop() async { await child.stop() }
}

/// `gpspipe -w` beside the daemon: the very JSON gpsd sent, for `wearbridge replay`.
final class Capture: @unchecked Sendable {
    let path: String
    let child: ChildProcess

    init(port: Int, directory: String, name: String = "capture", scope: ProcessScope) throws {
        // Line-buffered, so that what gpsd sent is in the file when the capture is stopped.
        child = try ChildProcess(
            "/usr/bin/stdbuf",
            ["-oL", "/usr/bin/gpspipe", "-w", "127.0.0.1:\(port)"],
            directory: directory,
            name: name,
            scope: scope
        )
        path = child.outPath
    }

    func stop() async { await child.stop() }
}

/// `wearbridge run` with its own configuration, storage and control socket.
final class DaemonUnderTest: @unchecked Sendable {
    let directory: String
    let configPath: String
    let socketPath: String
    var child: ChildProcess?
    private var starts = 0
    private let scope: ProcessScope

    init(directory: String, gpsdPort: Int, extra: String = "", autostart: Bool = true, scope: ProcessScope) throws {
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
    func start(environment: [String: String]? = nil) async throws {
        starts += 1
        let child = try ChildProcess(
            wearbridgeBinary,
            ["run", "--config", configPath, "--log-level", "debug"],
            environment: environment,
            directory: directory,
            name: "daemon\(starts)",
            scope: scope
        )
        self.child = child
        let up = try await eventually(timeout: 20) { try ctl("status").status == 0 }
        #expect(up, "daemon did not come up: \(child.stderr)")
    }

    func ctl(_ arguments: String...) throws -> (status: Int32, out: String, err: String) {
        try runCommand(wearbridgeBinary, ["ctl"] + arguments + ["--json", "--socket", socketPath])
    }

    /// The whole JSON reply of a `ctl` command.
    func reply(_ arguments: String...) throws -> [String: Any] {
        let result = try runCommand(wearbridgeBinary, ["ctl"] + arguments + ["--json", "--socket", socketPath])
        return try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any] ?? [:]
    }

    func status() throws -> [String: Any] {
        let result = try ctl("status")
        let reply = try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any] ?? [:]
        return reply["status"] as? [String: Any] ?? [:]
    }

    func sessions() throws -> [[String: Any]] {
        let result = try runCommand(wearbridgeBinary, ["sessions", "--json", "--storage", "\(directory)/data"])
        return try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [[String: Any]] ?? []
    }

    func show(_ id: String) throws -> [String: Any] {
        let result = try runCommand(wearbridgeBinary, ["show", id, "--json", "--storage", "\(directory)/data"])
        return try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any] ?? [:]
    }

    /// Waits until no fix has arrived for `quiet` seconds: gpsfake has played its log.
    func waitForQuiet(_ quiet: Double = 2, timeout: Double = 120) async throws -> Bool {
        try await eventually(timeout: timeout, every: 0.5) {
            let gps = try status()["gps"] as? [String: Any]
            return (gps?["last_fix_age_s"] as? Double ?? 0) > quiet
        }
    }

    func stop() async { await child?.stop() }
}

/// gpsfake playing a recording of data/ and the daemon up beside it: the common
/// start of a test on a live run.
func liveRun(
    _ recording: String,
    cycle: Double = 0.008,
    directory: String,
    autostart: Bool = true,
    scope: ProcessScope
) async throws -> (gpsd: FakeGPSD, daemon: DaemonUnderTest) {
    let gpsd = try FakeGPSD("\(recordings)/\(recording)", cycle: cycle, directory: directory, scope: scope)
    let daemon = try DaemonUnderTest(directory: directory, gpsdPort: gpsd.port, autostart: autostart, scope: scope)
    #expect(await gpsd.waitUntilListening())
    try await daemon.start()
    return (gpsd, daemon)
}

/// A fix with every field set, `i` seconds into a straight line: what the data log must give back
/// bit for bit.
func loggedFix(_ i: Int) -> Fix {
    Fix(
        mode: 3,
        time: GPSTime(seconds: 1_750_000_000 + Double(i)),
        position: GeoPoint(latitude: 48.1 + Double(i) * 1e-5, longitude: 11.5),
        errorEast: 3.5,
        errorNorth: 4.5,
        horizontalError: 6.25,
        speed: 2.5,
        track: 90,
        speedError: 0.4,
        receivedAt: 1000.125 + Double(i)
    )
}

/// `wearbridge replay --json` of a capture.
func replay(_ path: String) throws -> [String: Any] {
    let result = try runCommand(wearbridgeBinary, ["replay", "--json", path])
    return try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any] ?? [:]
}

/// The first `count` lines of a recording, as a file of its own.
func head(_ source: String, lines: Range<Int>, into path: String) throws {
    let all = try String(contentsOfFile: source, encoding: .utf8).split(whereSeparator: \.isNewline)
    try all[lines.clamped(to: 0..<all.count)].joined(separator: "\n").appending("\n").write(
        toFile: path,
        atomically: true,
        encoding: .utf8
    )
}

/// A capture without the TPVs before `start` (GPS seconds): what gpsd sent before the daemon
/// connected is not the daemon's to record.
func trimmed(_ paths: [String], from start: Double, into path: String) throws -> String {
    var kept: [Substring] = []
    for source in paths {
        for line in try String(contentsOfFile: source, encoding: .utf8).split(whereSeparator: \.isNewline) {
            guard line.contains("\"class\":\"TPV\""), let range = line.range(of: "\"time\":\"") else {
                kept.append(line)
                continue
            }
            let stamp = String(line[range.upperBound...].prefix(while: { $0 != "\"" }))
            guard let time = ISO8601Time.parse(stamp), time.seconds < start - 0.0005 else {
                kept.append(line)
                continue
            }
        }
    }
    try (kept.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
    return path
}

/// The GPS time of a session's first logged fix.
func firstFixTime(_ directory: String, session: String) throws -> Double {
    let log = try SessionLog.openReadOnly(directory: "\(directory)/data")
    for case .fix(let fix) in try log.journal(of: session).entries {
        if let time = fix.time { return time.seconds }
    }
    return 0
}
