import Foundation
import Replay
import TrackCore

/// The receiver corpus (`gps-corpus/`): per log, what its contributor wrote, our distance and a
/// naive haversine sum; then how many stationary-described logs stay under 5 m, the worst
/// phantom, and how many logs replay cleanly. Replayed as walking, the strictest profile.
struct CorpusTable {
    let folder: String

    struct Row {
        var log: ReceiverCorpus.Log
        var report: ReplayReport?
        var failure: String?
        var naive: Double
        var seconds: Double
    }

    func run() throws -> [Row] {
        let corpus = try ReceiverCorpus(folder: folder)
        let clock = ContinuousClock()
        return corpus.logs.map { log in
            var report: ReplayReport?
            var failure: String?
            let elapsed = clock.measure {
                do {
                    report = try FileReplayer(activity: .walking, logger: quietLogger()).replay(path: log.path)
                } catch {
                    failure = "\(error)"
                }
            }
            let naive = (try? NaiveDistance.haversineSum(path: log.path)) ?? 0
            return Row(log: log, report: report, failure: failure, naive: naive, seconds: elapsed.seconds)
        }
    }

    static func print(_ rows: [Row]) {
        StandardOutput.line("")
        StandardOutput.line("receiver corpus (gpsd regression suite, replayed as walking)")
        StandardOutput.line(
            "log".padding(toLength: 30, withPad: " ", startingAt: 0)
                + "described    fixes    ours m   naive m  judged                                      description"
        )
        for row in rows { StandardOutput.line(text(row)) }
        summary(rows)
    }

    private static func text(_ row: Row) -> String {
        func left(_ s: String, _ n: Int) -> String {
            s.count >= n ? String(s.prefix(n - 1)) + " " : s.padding(toLength: n, withPad: " ", startingAt: 0)
        }
        guard let report = row.report else {
            return left(row.log.name, 30) + "FAILED: " + (row.failure ?? "?")
        }
        let s = report.summary
        let judged = judgement(report.receiver)
        return left(row.log.name, 30) + left(row.log.described.rawValue, 11)
            + rightAligned("\(s.accepted)/\(s.accepted + s.rejectedTotal)", 7) + rightAligned(fmt(s.distance, 1), 10)
            + rightAligned(fmt(row.naive, 1), 10) + "  " + left(judged, 44)
            + String(row.log.description.prefix(60))
    }

    private static func judgement(_ receiver: ReceiverJudgement) -> String {
        var parts: [String] = []
        let ignored = receiver.ignoredFieldNames
        if !ignored.isEmpty { parts.append("ignores " + ignored.joined(separator: ",")) }
        parts.append("pos x\(fmt(receiver.positionNoiseScale, 2))")
        parts.append("dop x\(fmt(receiver.dopplerNoiseScale, 2))")
        return parts.joined(separator: " ")
    }

    private static func summary(_ rows: [Row]) {
        let clean = rows.filter { $0.report != nil }
        let malformed = clean.reduce(0) { $0 + ($1.report?.malformedLines ?? 0) }
        let withMalformed = clean.filter { ($0.report?.malformedLines ?? 0) > 0 }.count
        let slowest = rows.max { $0.seconds < $1.seconds }
        StandardOutput.line(
            "replayed cleanly: \(clean.count) of \(rows.count) logs (malformed lines counted and skipped: \(malformed)"
                + " in \(withMalformed) logs; slowest replay \(fmt((slowest?.seconds ?? 0) * 1000, 1)) ms,"
                + " \(slowest?.log.name ?? "-"))"
        )
        let stationary = clean.filter { $0.log.described == .stationary }
        let under = stationary.filter { $0.report!.summary.distance < 5 }
        StandardOutput.line("described as stationary: \(under.count) of \(stationary.count) under 5 m")
        if let worst = stationary.max(by: { $0.report!.summary.distance < $1.report!.summary.distance }) {
            StandardOutput.line(
                "worst phantom (stationary-described): \(worst.log.name) \(fmt(worst.report!.summary.distance, 1)) m"
                    + " (naive \(fmt(worst.naive, 1)) m)"
            )
        }
        let moving = clean.filter { $0.log.described == .moving }
        let movingText = moving.map { "\($0.log.name) \(fmt($0.report!.summary.distance, 1)) m" }
        StandardOutput.line("described as moving: " + movingText.joined(separator: ", "))
        let unstated = clean.filter { $0.log.described == .unstated && $0.report!.summary.distance > 0 }
        StandardOutput.line(
            "no motion stated, distance > 0: "
                + unstated.map { "\($0.log.name) \(fmt($0.report!.summary.distance, 1)) m" }.joined(separator: ", ")
        )
    }
}
