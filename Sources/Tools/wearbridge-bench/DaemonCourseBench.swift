import ArgumentParser
import Course
import Engine
import Foundation
import Harness
import PhoneLinkWire
import ProcessClock
import Replay
import SessionCore
import Store
import Synchronization
import TrackCore

/// The daemon's CPU with a course followed against none: the same recording through a real gpsd at
/// its own 10 Hz, a session started by `ctl start` with and without `--course` (the recording's own
/// line, simplified as the phone keeps a course), in turns, each beside gpsd's CPU in the same run.
struct DaemonCourseBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "daemon-course",
        abstract: "Daemon CPU following a course against none, at 10 Hz beside gpsd, in turns."
    )

    @Option(help: "Minutes measured in each turn.")
    var minutes = 2.0

    @Option(help: "Turns of each (none, course, none, course...).")
    var turns = 2

    @Option(help: "The wearbridge executable; by default the one beside this benchmark.")
    var wearbridge: String?

    @OptionGroup var data: DataOptions

    func run() throws {
        let executable = wearbridge ?? Command.wearbridge
        let work = "/tmp/wearbridge-bench-daemon-course-\(getpid())"
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: work) }
        let recording = "\(data.data)/gps/tempo_10hz_3k"
        let course = try Self.course(from: "\(recording).jsonl")
        StandardOutput.line(
            "course: the recording's line, \(fmt(course.length, 0)) m, kept as \(course.points.count) points"
                + " (\(CourseWire.encode(course).count) bytes); \(turns) turns of \(fmt(minutes, 1)) min each"
        )
        var shares: [Bool: [(ours: Double, gpsd: Double)]] = [false: [], true: []]
        for turn in 0..<(2 * turns) {
            let following = turn % 2 == 1
            let figures = try measure(
                executable,
                recording: "\(recording).nmea",
                course: following ? course : nil,
                directory: "\(work)/\(turn)"
            )
            shares[following, default: []].append(figures)
            StandardOutput.line(
                "  \(following ? "course" : "none  ") wearbridge \(fmt(figures.ours * 100, 3))% of one core,"
                    + " gpsd \(fmt(figures.gpsd * 100, 3))%: x\(fmt(figures.ours / figures.gpsd, 3)) gpsd's"
            )
        }
        func mean(_ values: [Double]) -> Double { values.reduce(0, +) / Double(max(1, values.count)) }
        let none = shares[false] ?? []
        let with = shares[true] ?? []
        let raw = mean(with.map(\.ours)) / mean(none.map(\.ours))
        let relative = mean(with.map { $0.ours / $0.gpsd }) / mean(none.map { $0.ours / $0.gpsd })
        StandardOutput.line(
            "CPU with a course against none: x\(fmt(raw, 3)) (each turn against its own gpsd: x\(fmt(relative, 3)));"
                + " \(fmt(mean(with.map(\.ours)) * 3600, 1)) against \(fmt(mean(none.map(\.ours)) * 3600, 1))"
                + " s per hour"
        )
    }

    /// The recording's accepted positions as a course, simplified to 3 m as the phone keeps one.
    static func course(from path: String) throws -> Course {
        let fixes = try FileReplayer(activity: .running, logger: quietLogger()).timedFixes(path: path)
        guard let whole = Course(name: "Tempo line", positions: fixes.compactMap(\.position)) else {
            throw HarnessError("no course in \(path)")
        }
        return try CourseWire.decode(CourseWire.encode(CourseShape.simplified(whole, tolerance: 3)))
    }

    /// One turn: the daemon (its log holding the course, if any) started on a session by `ctl start`,
    /// measured after a warm-up; its share of a core and gpsd's.
    private func measure(
        _ executable: String,
        recording: String,
        course: Course?,
        directory: String
    ) throws -> (ours: Double, gpsd: Double) {
        let config = try DaemonBench.writeConfig(directory: directory, gpsdPort: 1, autostart: false)
        if let course { try Self.keep(course, in: "\(directory)/data") }
        let gpsfake = try DaemonBench.startGPSFake(recording, directory: directory)
        defer { DaemonBench.stop(gpsfake) }
        let text = try String(contentsOfFile: config, encoding: .utf8)
        try text.replacingOccurrences(of: "port = 1\n", with: "port = \(gpsfake.port)\n")
            .write(toFile: config, atomically: true, encoding: .utf8)
        let daemon = try DaemonBench.launch([executable, "run", "--config", config], notify: nil, directory: directory)
        defer {
            daemon.terminate()
            daemon.waitUntilExit()
        }
        guard let gpsd = DaemonBench.waitForChild(of: gpsfake.process.processIdentifier) else {
            throw HarnessError("gpsd did not start")
        }
        try FileManager.default.createDirectory(atPath: "\(directory)/ctl", withIntermediateDirectories: true)
        var start = [executable, "ctl", "start", "--socket", "\(directory)/control.sock"]
        if let course { start += ["--course", course.name] }
        var started = false
        for _ in 0..<100 where !started {
            Thread.sleep(forTimeInterval: 0.2)
            let ctl = try DaemonBench.launch(start, notify: nil, directory: "\(directory)/ctl")
            ctl.waitUntilExit()
            started = ctl.terminationStatus == 0
        }
        guard started else { throw HarnessError("the session did not start (\(directory)/ctl/stderr.log)") }
        Thread.sleep(forTimeInterval: 15)
        let ours = ProcessStats(pid: daemon.processIdentifier)
        let theirs = ProcessStats(pid: gpsd)
        let (ourStart, theirStart, wallStart) = (ours.cpuSeconds, theirs.cpuSeconds, MonotonicClock.now())
        Thread.sleep(forTimeInterval: minutes * 60)
        let wall = MonotonicClock.now() - wallStart
        return ((ours.cpuSeconds - ourStart) / wall, (theirs.cpuSeconds - theirStart) / wall)
    }

    /// The course in the data log as the link's last part leaves it: kept under its name.
    private static func keep(_ course: Course, in directory: String) throws {
        let log = try SessionLog.open(directory: directory)
        let batch = WriteBatch(
            id: 1,
            rows: [.session(.courseKept(id: "bench", name: course.name, bytes: CourseWire.encode(course)))]
        )
        let done = DispatchSemaphore(value: 0)
        let failure = Mutex<String?>(nil)
        Task {
            do { try await log.write(batch) } catch { failure.withLock { $0 = "\(error)" } }
            done.signal()
        }
        done.wait()
        if let error = failure.withLock({ $0 }) { throw HarnessError("the course could not be kept: \(error)") }
    }
}
