import ArgumentParser
import Foundation
import GPSD
import Replay
import TrackCore

/// Distance per recorded session: truth, ours and a naive haversine sum, computed in the same run.
struct Accuracy: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract:
            "Distance error per session against ground truth, beside the naive haversine sum; the receiver corpus."
    )

    @OptionGroup var options: DataOptions

    @Flag(help: "Leave out the receiver corpus table.")
    var skipCorpus = false

    func run() throws {
        var failures = 0
        let header =
            "session".padding(toLength: 26, withPad: " ", startingAt: 0)
            + "  activity   truth m     ours m   error     naive m   naive err   Doppler m  Dop err"
            + "   moving s (truth)  goal"
        StandardOutput.line(header)
        var breakdowns: [(Truth, ErrorBreakdown, ReceiverJudgement)] = []
        for folder in ["gps", "gps-real"] {
            for session in try Truth.sessions(in: "\(options.data)/\(folder)") {
                var samples: [ErrorBreakdown.Sample] = []
                let replayer = FileReplayer(activity: session.activity, logger: quietLogger())
                let report = try replayer.replay(path: session.recording) { fix, _, track in
                    guard let time = fix.time else { return }
                    samples.append(
                        .init(time: time.seconds, speed: fix.speed, course: fix.track, distance: track.distance)
                    )
                }
                let naive = try NaiveDistance.haversineSum(path: session.recording)
                let breakdown = ErrorBreakdown(samples: samples)
                let row = AccuracyRow(
                    truth: session,
                    ours: report.summary,
                    naive: naive,
                    doppler: breakdown.doppler,
                    goal: folder == "gps" ? AccuracyRow.simulatedGoal : AccuracyRow.recordedGoal
                )
                if !row.meetsGoal { failures += 1 }
                StandardOutput.line(row.text)
                if folder == "gps", let distance = session.distance, distance > 0 {
                    breakdowns.append((session, breakdown, report.receiver))
                }
            }
        }
        StandardOutput.line(
            failures == 0 ? "all sessions meet the goal" : "\(failures) session(s) miss the goal"
        )
        printBreakdowns(breakdowns)
        DopplerSeeds.print()
        MisreportingTable.print()
        if !skipCorpus {
            CorpusTable.print(try CorpusTable(folder: "\(options.data)/gps-corpus").run())
        }
    }

    /// Per class of interval, ours minus the Doppler integral in metres; the Doppler integral's
    /// own error against the truth closes the sum (ours - truth = classes + Doppler error).
    private func printBreakdowns(_ breakdowns: [(Truth, ErrorBreakdown, ReceiverJudgement)]) {
        StandardOutput.line("")
        StandardOutput.line("where the error comes from: ours minus the Doppler integral, metres (seconds)")
        let classes = ErrorBreakdown.Class.allCases
        StandardOutput.line(
            "session".padding(toLength: 26, withPad: " ", startingAt: 0)
                + classes.map { rightAligned($0.rawValue, 19) }.joined() + rightAligned("Doppler-truth", 15)
                + rightAligned("ours-truth", 12) + "  learnt noise x (position, Doppler)"
        )
        var verdicts: [DopplerVerdict] = []
        for (truth, breakdown, receiver) in breakdowns {
            guard let distance = truth.distance else { continue }
            let cells = classes.map { kind -> String in
                guard let part = breakdown.parts[kind] else { return rightAligned("-", 19) }
                return rightAligned(String(format: "%+.1f (%.0f)", part.difference, part.seconds), 19)
            }
            StandardOutput.line(
                truth.name.padding(toLength: 26, withPad: " ", startingAt: 0) + cells.joined()
                    + rightAligned(String(format: "%+.1f", breakdown.doppler - distance), 15)
                    + rightAligned(String(format: "%+.1f", breakdown.ours - distance), 12)
                    + String(format: "  %.2f, %.2f", receiver.positionNoiseScale, receiver.dopplerNoiseScale)
            )
            verdicts.append(
                DopplerVerdict(
                    name: truth.name,
                    ours: breakdown.ours,
                    doppler: breakdown.doppler,
                    standing: breakdown.standing,
                    truth: distance
                )
            )
        }
        DopplerVerdict.print(verdicts)
    }
}

struct AccuracyRow {
    /// The goal for the simulated sessions (`gps`), and the looser one for real receivers (`gps-real`).
    static let simulatedGoal = 0.0015
    static let recordedGoal = 0.01

    let truth: Truth
    let ours: SessionSummary
    let naive: Double
    let doppler: Double
    /// The largest error allowed as a fraction of the distance, for moving sessions.
    let goal: Double

    /// Moving sessions within `goal` (or the recording's own stated tolerance); stationary under 5 m.
    var meetsGoal: Bool {
        guard let distance = truth.distance else { return true }
        let error = abs(ours.distance - distance)
        if distance == 0 { return ours.distance < 5 }
        if let tolerance = truth.tolerance { return error <= tolerance }
        return error / distance <= goal
    }

    var text: String {
        func fmt(_ v: Double, _ p: Int = 1) -> String { String(format: "%.\(p)f", v) }
        func error(_ value: Double) -> String {
            guard let distance = truth.distance else { return "-" }
            return distance == 0 ? "+\(fmt(value)) m" : fmt((value - distance) / distance * 100, 2) + "%"
        }
        let goal = truth.distance == nil ? "n/a (robustness)" : (meetsGoal ? "ok" : "MISS")
        return truth.name.padding(toLength: 26, withPad: " ", startingAt: 0) + "  "
            + truth.activity.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0)
            + rightAligned(truth.distance.map { fmt($0) } ?? "-", 10) + rightAligned(fmt(ours.distance), 11)
            + rightAligned(error(ours.distance), 9) + rightAligned(fmt(naive), 12) + rightAligned(error(naive), 12)
            + rightAligned(fmt(doppler), 11) + rightAligned(error(doppler), 9)
            + rightAligned(fmt(ours.moving, 0), 10) + " (" + (truth.moving.map { fmt($0, 0) } ?? "-") + ")"
            + "  " + goal
    }
}
