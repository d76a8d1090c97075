import ArgumentParser
import Energy
import Engine
import Foundation
import Harness
import HeartRate
import Logging
import Replay
import SessionCore
import SpeedSensors
import Store
import TrackCore

/// A real data log made from a gpsd recording (or a generated run) through the session logic the
/// daemon runs, with beats, pauses and an end: what the export tests and benchmark read.
struct MakeSession: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "make-session",
        abstract: "Write a session from a gpsd JSON recording (or a generated run) into a data log."
    )

    @Option(help: "A gpsd JSON recording.")
    var recording: String?

    @Option(help: "Instead of a recording: a generated run of this many hours...")
    var hours: Double?

    @Option(help: "...at this many fixes a second.")
    var rate = 10.0

    @Option(help: "running, walking or cycling.")
    var activityName = "running"

    private var activity: Activity { Activity(rawValue: activityName) ?? .running }

    @Flag(help: "A beat a second with RR intervals, as a chest strap sends them.")
    var beats = false

    @Option(help: "Pause by command this many seconds into the session (repeatable)...")
    var pauseAt: [Double] = []

    @Option(help: "...for this long each time.")
    var pauseFor = 60.0

    @Option(help: "The system clock at the start (s since 1970), for a board without a real-time clock.")
    var systemClock: Double?

    @Option(help: "The storage directory (created).")
    var out: String

    @Option(
        help: "Instead of GPS: an indoor session on a treadmill (a workout of speed steps), a footpod or an IMU."
    )
    var indoor: DistanceSource?

    @Option(help: "Indoors: minutes of running.")
    var minutes = 30.0

    @Option(name: .customLong("body-mass"), help: "The wearer's body mass (kg): the session costs its energy.")
    var bodyMass: Double?

    @Option(help: "The load carried (kg).")
    var load: Double?

    @Option(help: "The name of a course the session follows (its course_following event).")
    var course: String?

    private var carriage: CarriageOverride {
        get throws {
            do { return try CarriageOverride.checked(bodyMass: bodyMass, load: load).get() } catch {
                throw ValidationError(error.message)
            }
        }
    }

    func validate() throws {
        guard Activity(rawValue: activityName) != nil else {
            throw ValidationError("--activity-name: running, walking or cycling")
        }
    }

    func run() async throws {
        if let indoor { return try await runIndoors(indoor) }
        let path: String
        if let hours {
            path = "\(out)/generated.jsonl"
            try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
            _ = try SyntheticSession(hours: hours, rate: rate).write(to: path)
        } else if let recording {
            path = recording
        } else {
            throw ValidationError("--recording or --hours")
        }
        let fixes = try FileReplayer(activity: activity, logger: Logger(label: "make-session")).timedFixes(path: path)
        if hours != nil { try? FileManager.default.removeItem(atPath: path) }
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let log = try SessionLog.open(directory: out)
        var controller = SessionController(
            configuration: .init(activity: activity, heartRateZones: HeartRateZones(maxHeartRate: 190)),
            ids: SessionIDGenerator(seed: UInt64.random(in: 0...UInt64.max))
        )
        var rows: [SessionRow] = []
        var batch = 0
        func flush(_ force: Bool = false) async throws {
            guard force || rows.count >= 5000 else { return }
            batch += 1
            try await log.write(WriteBatch(id: batch, rows: rows.map(LogRow.session)))
            rows.removeAll(keepingCapacity: true)
        }
        guard let first = fixes.first(where: { $0.time != nil })?.time?.seconds else {
            throw ValidationError("no fix with a time in the recording")
        }
        var output = SessionOutput()
        _ = controller.handle(
            .start,
            id: "make-start",
            activity: activity,
            carriage: try carriage,
            receivedAt: first,
            systemTime: systemClock ?? first,
            into: &output
        )
        if let course {
            controller.event(.course(.following(name: course, length: 5000)), receivedAt: first, into: &output)
        }
        var pauses = pauseAt.sorted().map { first + $0 }
        var resumeAt: Double?
        var nextBeat = first + 0.5
        var generator = SplitMix(seed: 11)
        for fix in fixes {
            guard let now = fix.receivedAt else { continue }
            if let pause = pauses.first, now >= pause {
                pauses.removeFirst()
                _ = controller.handle(.pause, id: "pause-\(pause)", receivedAt: now, systemTime: now, into: &output)
                resumeAt = now + pauseFor
            }
            if let resume = resumeAt, now >= resume {
                resumeAt = nil
                _ = controller.handle(.resume, id: "resume-\(resume)", receivedAt: now, systemTime: now, into: &output)
            }
            while beats, nextBeat <= now {
                let bpm = 130 + Int(25 * sin((nextBeat - first) / 600)) + Int(generator.gaussian() * 2)
                let rr = UInt16(60.0 / Double(bpm) * 1024)
                let sample = HeartRateSample(bpm: bpm, contact: .detected, rrIntervals: [rr], receivedAt: nextBeat)
                controller.heartRate(sample, into: &output)
                nextBeat += 1
            }
            controller.ingest(fix, into: &output)
            rows += output.rows
            output.removeAll()
            try await flush()
        }
        let last = fixes.last?.receivedAt ?? first
        _ = controller.handle(.end, id: "make-end", receivedAt: last, systemTime: last, into: &output)
        rows += output.rows
        try await flush(true)
        let session = try log.sessions().first
        StandardOutput.line(
            "\(session?.id ?? "?") \(fixes.count) fixes, \(Int(session?.distance ?? 0)) m, moving \(Int(session?.moving ?? 0)) s"
        )
    }

    /// An indoor session: a reading a second from the treadmill (steps of 2.5, 3.3, 4.0, 0 and 3.0
    /// m/s, five minutes each, over and over), the footpod (a 7 % long count, cadence 172, the
    /// same paces) or the pedometer (the footpod's metres, 172 steps a minute counted, still at 0
    /// m/s), with beats and pauses as outdoors.
    private func runIndoors(_ source: DistanceSource) async throws {
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let log = try SessionLog.open(directory: out)
        var controller = SessionController(
            configuration: .init(
                activity: activity,
                heartRateZones: HeartRateZones(maxHeartRate: 190),
                indoorSource: source
            ),
            ids: SessionIDGenerator(seed: UInt64.random(in: 0...UInt64.max))
        )
        let first = 100.0
        var output = SessionOutput()
        _ = controller.handle(
            .start,
            id: "make-start",
            activity: activity,
            indoor: true,
            receivedAt: first,
            systemTime: systemClock ?? 1_750_000_000,
            into: &output
        )
        var pauses = pauseAt.sorted().map { first + $0 }
        var resumeAt: Double?
        var generator = SplitMix(seed: 11)
        var total = 0.0
        var steps = 0.0
        let seconds = Int(minutes * 60)
        for k in 0...seconds {
            let now = first + Double(k)
            if let pause = pauses.first, now >= pause {
                pauses.removeFirst()
                _ = controller.handle(.pause, id: "pause-\(pause)", receivedAt: now, systemTime: now, into: &output)
                resumeAt = now + pauseFor
            }
            if let resume = resumeAt, now >= resume {
                resumeAt = nil
                _ = controller.handle(.resume, id: "resume-\(resume)", receivedAt: now, systemTime: now, into: &output)
            }
            let speed = [2.5, 3.3, 4.0, 0, 3.0][(k / 300) % 5]
            total += speed
            if beats {
                let bpm = 125 + Int(30 * speed / 4) + Int(generator.gaussian() * 2)
                let rr = UInt16(60.0 / Double(bpm) * 1024)
                let beat = HeartRateSample(bpm: bpm, contact: .detected, rrIntervals: [rr], receivedAt: now - 0.7)
                controller.heartRate(beat, into: &output)
            }
            if speed > 0 { steps += 172.0 / 60 }
            let reading =
                switch source {
                case .treadmill:
                    SpeedSample(speed: speed, totalDistance: total.rounded(.down), inclination: 1.0, elapsedTime: k)
                case .steps:
                    SpeedSample(
                        speed: speed * 1.07,
                        cadence: speed > 0 ? 172 : nil,
                        strideLength: speed * 1.07 * 60 / 172,
                        totalDistance: total * 1.07,
                        steps: Int(steps),
                        still: speed == 0
                    )
                default:
                    SpeedSample(
                        speed: speed * 1.07,
                        cadence: speed > 0 ? 172 : 0,
                        strideLength: speed * 1.07 * 60 / 172,
                        totalDistance: (total * 1.07 * 10).rounded(.down) / 10
                    )
                }
            controller.speed(SpeedSensorSample(source: source, reading: reading, receivedAt: now), into: &output)
        }
        let last = first + Double(seconds)
        _ = controller.handle(.end, id: "make-end", receivedAt: last, systemTime: last, into: &output)
        try await log.write(WriteBatch(id: 1, rows: output.rows.map(LogRow.session)))
        let session = try log.sessions().first
        StandardOutput.line(
            "\(session?.id ?? "?") indoor (\(source.rawValue)), \(Int(session?.distance ?? 0)) m, moving \(Int(session?.moving ?? 0)) s"
        )
    }
}

extension DistanceSource: ExpressibleByArgument {}
