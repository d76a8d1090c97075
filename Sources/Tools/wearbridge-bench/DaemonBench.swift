import ArgumentParser
import Foundation
import GPSDLink
import Harness
import ProcessClock

#if canImport(Glibc)
import Glibc
#endif

/// The daemon's steady-state figures on a real gpsd fed at 10 Hz: CPU per hour and peak RSS beside
/// gpsd's own, time to READY=1, fsyncs per minute.
struct DaemonBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "daemon",
        abstract: "Daemon CPU/RSS vs gpsd at 10 Hz, time to READY=1, fsyncs per minute."
    )

    @Option(help: "Minutes of steady-state logging to measure.")
    var minutes = 3.0

    @Option(help: "Minutes of logging under strace for the fsync count.")
    var fsyncMinutes = 1.0

    @Option(help: "Cold starts measured for the time to READY=1.")
    var starts = 5

    @Option(help: "The wearbridge executable; by default the one beside this benchmark.")
    var wearbridge: String?

    @OptionGroup var data: DataOptions

    func run() throws {
        let executable = wearbridge ?? Command.wearbridge
        let work = "/tmp/wearbridge-bench-daemon-\(getpid())"
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: work) }
        let recording = "\(data.data)/gps/tempo_10hz_3k.nmea"

        let ready = try timeToReady(executable, work: work)
        StandardOutput.line(
            "time to READY=1 (\(starts) cold starts, empty log, no gpsd): median \(fmt(ready.median * 1000, 0)) ms,"
                + " max \(fmt(ready.max * 1000, 0)) ms"
        )

        try steadyState(executable, recording: recording, work: work)
        try fsyncs(executable, recording: recording, work: work)
    }

    // MARK: Phases

    private func timeToReady(_ executable: String, work: String) throws -> (median: Double, max: Double) {
        var times: [Double] = []
        for run in 0..<starts {
            let directory = "\(work)/ready\(run)"
            let config = try Self.writeConfig(directory: directory, gpsdPort: 1, autostart: false)
            let notify = try NotifyListener(path: "\(directory)/notify.sock")
            let start = MonotonicClock.now()
            let daemon = try Self.launch(
                [executable, "run", "--config", config],
                notify: notify.path,
                directory: directory
            )
            guard notify.wait(for: "READY=1", timeout: 30) != nil else { throw HarnessError("no READY=1") }
            times.append(MonotonicClock.now() - start)
            daemon.terminate()
            daemon.waitUntilExit()
        }
        times.sort()
        return (times[times.count / 2], times.last ?? .nan)
    }

    private func steadyState(_ executable: String, recording: String, work: String) throws {
        let directory = "\(work)/steady"
        let gpsfake = try Self.startGPSFake(recording, directory: directory)
        defer { Self.stop(gpsfake) }
        let config = try Self.writeConfig(directory: directory, gpsdPort: gpsfake.port, autostart: true)
        let daemon = try Self.launch([executable, "run", "--config", config], notify: nil, directory: directory)
        defer {
            daemon.terminate()
            daemon.waitUntilExit()
        }
        guard let gpsdPID = Self.waitForChild(of: gpsfake.process.processIdentifier) else {
            throw HarnessError("gpsd did not start")
        }
        // Warm up: the session begins, gpsd settles at 10 Hz.
        Thread.sleep(forTimeInterval: 15)
        let ours = ProcessStats(pid: daemon.processIdentifier)
        let theirs = ProcessStats(pid: gpsdPID)
        let (ourStart, theirStart, wallStart) = (ours.cpuSeconds, theirs.cpuSeconds, MonotonicClock.now())
        Thread.sleep(forTimeInterval: minutes * 60)
        let wall = MonotonicClock.now() - wallStart
        let ourCPU = ours.cpuSeconds - ourStart
        let theirCPU = theirs.cpuSeconds - theirStart
        let ourRSS = ours.peakRSSMB
        let theirRSS = theirs.peakRSSMB
        daemon.terminate()
        daemon.waitUntilExit()

        StandardOutput.line(
            "steady state, \(fmt(wall / 60, 1)) min of 10 Hz logging (tempo_10hz_3k.nmea through gpsfake):"
        )
        StandardOutput.line(
            "  wearbridge CPU \(fmt(ourCPU / wall * 3600, 1)) s per hour = \(fmt(ourCPU / wall * 100, 2))% of one core"
                + " (goal < 1%); peak RSS \(fmt(ourRSS, 1)) MB (goal < 30 MB)"
        )
        StandardOutput.line(
            "  gpsd       CPU \(fmt(theirCPU / wall * 3600, 1)) s per hour = \(fmt(theirCPU / wall * 100, 2))% of one core;"
                + " peak RSS \(fmt(theirRSS, 1)) MB"
        )
        StandardOutput.line(
            "  ratio wearbridge/gpsd: CPU \(fmt(ourCPU / theirCPU, 2))x, RSS \(fmt(ourRSS / theirRSS, 2))x"
        )
    }

    private func fsyncs(_ executable: String, recording: String, work: String) throws {
        let directory = "\(work)/fsync"
        let gpsfake = try Self.startGPSFake(recording, directory: directory)
        defer { Self.stop(gpsfake) }
        let config = try Self.writeConfig(directory: directory, gpsdPort: gpsfake.port, autostart: true)
        let log = "\(directory)/strace.log"
        let strace = try Self.launch(
            [
                "/usr/bin/strace", "-f", "-qq", "-ttt", "-e", "trace=fsync,fdatasync,sync_file_range,msync", "-o", log,
                executable, "run", "--config", config,
            ],
            notify: nil,
            directory: directory
        )
        Thread.sleep(forTimeInterval: 10)
        let from = Date().timeIntervalSince1970
        Thread.sleep(forTimeInterval: fsyncMinutes * 60)
        let to = Date().timeIntervalSince1970
        if let daemon = ProcessStats(pid: strace.processIdentifier).children.first { kill(daemon, SIGTERM) }
        strace.waitUntilExit()
        let calls = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").filter { line in
            let fields = line.split(separator: " ")
            guard fields.count > 2, let time = Double(fields[1]) else { return false }
            return time >= from && time <= to && !line.contains("resumed>")
        }
        StandardOutput.line(
            "fsyncs while logging at 10 Hz: \(fmt(Double(calls.count) / ((to - from) / 60), 1)) per minute"
                + " (\(calls.count) in \(fmt((to - from) / 60, 1)) min; batched commits about once a second, WAL, synchronous=FULL)"
        )
    }

    // MARK: Helpers

    static func writeConfig(directory: String, gpsdPort: Int, autostart: Bool, cues: Bool = false) throws -> String {
        try FileManager.default.createDirectory(atPath: "\(directory)/data", withIntermediateDirectories: true)
        let path = "\(directory)/wearbridge.toml"
        try """
        [gpsd]
        port = \(gpsdPort)
        [storage]
        directory = "\(directory)/data"
        [control]
        socket = "\(directory)/control.sock"
        [session]
        autostart = \(autostart)
        [cues]
        enabled = \(cues)
        [log]
        level = "warning"
        """.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static func launch(_ arguments: [String], notify: String?, directory: String) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: arguments[0])
        process.arguments = Array(arguments.dropFirst())
        var environment = ProcessInfo.processInfo.environment
        environment["NOTIFY_SOCKET"] = notify
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        _ = FileManager.default.createFile(atPath: "\(directory)/stderr.log", contents: nil)
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: "\(directory)/stderr.log"))
        try process.run()
        return process
    }

    /// gpsfake at the recording's real pace: 4 sentences per 100 ms epoch.
    static func startGPSFake(_ recording: String, directory: String) throws -> (process: Process, port: Int) {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let port = Loopback.freePort()
        let process = try Self.launch(
            ["/usr/bin/gpsfake", "-1", "-q", "-W", "3600", "-c", "0.025", "-P", "\(port)", recording],
            notify: nil,
            directory: directory
        )
        for _ in 0..<150 {
            if Loopback.isListening(port: port) { return (process, port) }
            Thread.sleep(forTimeInterval: 0.1)
        }
        throw HarnessError("gpsfake's gpsd did not listen on \(port)")
    }

    static func waitForChild(of pid: Int32) -> Int32? {
        for _ in 0..<100 {
            if let child = ProcessStats(pid: pid).children.first { return child }
            Thread.sleep(forTimeInterval: 0.1)
        }
        return nil
    }

    static func stop(_ gpsfake: (process: Process, port: Int)) {
        let children = ProcessStats(pid: gpsfake.process.processIdentifier).children
        gpsfake.process.terminate()
        Thread.sleep(forTimeInterval: 0.5)
        for child in children { kill(child, SIGKILL) }
        kill(gpsfake.process.processIdentifier, SIGKILL)
        gpsfake.process.waitUntilExit()
    }
}
