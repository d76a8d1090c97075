import ArgumentParser
import Engine
import Foundation
import GPSD
import SessionCore
import TrackCore

/// Fixes per second through the whole core on one core, against a bare haversine loop over the
/// same fixes in the same run; and gpsd JSON decoding throughput, separately.
struct Throughput: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Core fixes/s vs a bare haversine-sum loop, and JSON decoding lines/s."
    )

    @OptionGroup var options: DataOptions

    @Option(help: "Fixes to push through the core.")
    var fixes = 2_000_000

    @Option(help: "Lines to decode.")
    var lines = 200_000

    func run() throws {
        let folder = "\(options.data)/gps"
        let truths = try Truth.sessions(in: folder)
        let recordings = truths.map(\.recording)
        let sessions = try truths.map { ($0.activity, try RecordedFixes.load(path: $0.recording, merge: true)) }
        let perRound = sessions.reduce(0) { $0 + $1.1.count }
        let rounds = max(1, fixes / perRound)
        let total = rounds * perRound

        let clock = ContinuousClock()
        var sink = 0.0
        let core = clock.measure {
            for _ in 0..<rounds {
                for (activity, fixes) in sessions {
                    var session = TrackSession(activity: activity)
                    for fix in fixes { _ = session.ingest(fix) }
                    sink += session.distance
                }
            }
        }
        let bare = clock.measure {
            for _ in 0..<rounds {
                for (_, fixes) in sessions {
                    var last: GeoPoint?
                    for fix in fixes {
                        guard let p = fix.position else { continue }
                        if let last { sink += NaiveDistance.haversine(last, p) }
                        last = p
                    }
                }
            }
        }
        let coreRate = Double(total) / core.seconds
        let bareRate = Double(total) / bare.seconds
        StandardOutput.line(
            "core:      \(total) fixes in \(fmt(core.seconds, 3)) s = \(fmt(coreRate / 1e6, 2)) M fixes/s"
        )
        StandardOutput.line(
            "haversine: \(total) fixes in \(fmt(bare.seconds, 3)) s = \(fmt(bareRate / 1e6, 2)) M fixes/s"
        )
        StandardOutput.line(
            "ratio:     core takes \(fmt(core.seconds / bare.seconds, 2))x the bare loop's time"
                + " (goal: >= 2 M fixes/s and <= 10x)"
        )

        // The same fixes as gpsd reports through the engine core (merger, session logic, rows,
        // batches once a second answered by a writer that commits at once, figures per batch).
        let reports = sessions.map { activity, fixes in (activity, fixes.map(TPV.init)) }
        let engine = clock.measure {
            for _ in 0..<rounds {
                for (activity, tpvs) in reports {
                    sink += Self.runEngine(activity: activity, tpvs)
                }
            }
        }
        let engineRate = Double(total) / engine.seconds
        StandardOutput.line(
            "engine:    \(total) fixes in \(fmt(engine.seconds, 3)) s = \(fmt(engineRate / 1e6, 2)) M fixes/s"
                + " (\(fmt(engine.seconds / core.seconds, 2))x the core's time: gpsd reports in, rows out)"
        )

        var corpus: [[UInt8]] = []
        for path in recordings {
            let text = try String(contentsOfFile: path, encoding: .utf8)
            corpus += text.split(separator: "\n").map { Array($0.utf8) }
        }
        let decodeRounds = max(1, lines / corpus.count)
        let bytes = corpus.reduce(0) { $0 + $1.count + 1 } * decodeRounds
        let decoder = GPSDDecoder()
        var decoded = 0
        let decoding = try clock.measure {
            for _ in 0..<decodeRounds {
                for line in corpus {
                    if case .tpv = try decoder.decode(line) { decoded += 1 }
                }
            }
        }
        let lineCount = corpus.count * decodeRounds
        StandardOutput.line(
            "decode:    \(lineCount) lines in \(fmt(decoding.seconds, 3)) s = "
                + "\(fmt(Double(lineCount) / decoding.seconds / 1000, 1)) k lines/s, "
                + "\(fmt(Double(bytes) / decoding.seconds / 1e6, 1)) MB/s (\(decoded) TPVs)"
        )
        StandardOutput.line("(checksum \(fmt(sink, 0)))")
    }
}

extension Throughput {
    /// One recording through `SessionEngine.handle` as the daemon's loop drives it; its distance.
    static func runEngine(activity: Activity, _ tpvs: [TPV]) -> Double {
        let configuration = SessionEngine.Configuration(session: .init(activity: activity, autostart: true))
        var engine = SessionEngine(
            configuration: configuration,
            controller: SessionController(configuration: configuration.session, ids: SessionIDGenerator(seed: 1))
        )
        var second = -Double.infinity
        for tpv in tpvs {
            let at = tpv.time?.seconds ?? second
            let now = Instant(monotonic: at, system: at)
            var actions = engine.handle(.gps(.fix(tpv.fix(receivedAt: at), receivedAt: at)), now: now)
            if at.rounded(.down) != second {
                second = at.rounded(.down)
                actions += engine.handle(.tick, now: now)
            }
            for case .persist(.write(let batch)) in actions {
                _ = engine.handle(.storage(.committed(batch: batch.id)), now: now)
            }
        }
        return engine.controller.session?.track.distance ?? 0
    }
}

func fmt(_ value: Double, _ places: Int) -> String { String(format: "%.\(places)f", value) }

extension Duration {
    var seconds: Double {
        let (s, attoseconds) = components
        return Double(s) + Double(attoseconds) / 1e18
    }
}
