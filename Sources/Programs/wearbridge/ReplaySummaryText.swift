import Replay
import TrackCore

/// The human-readable replay summary: what a field tester reads on a terminal.
struct ReplaySummaryText {
    let report: ReplayReport

    var text: String {
        let s = report.summary
        var lines = [
            "\(report.file) (\(s.activity.rawValue))",
            "  distance   \(TextFormat.format(s.distance / 1000, 3)) km",
            "  elapsed    \(TextFormat.clock(s.elapsed))   moving \(TextFormat.clock(s.moving))   paused \(TextFormat.clock(s.paused))"
                + " (\(s.autoPauses) auto-pauses)",
            "  avg pace   \(s.averagePace.map { TextFormat.clock($0) + " /km" } ?? "-")",
            "  fixes      \(s.accepted) accepted, \(s.rejectedTotal) rejected",
        ]
        for (reason, count) in s.rejected.sorted(by: { $0.key < $1.key }) {
            lines.append("             \(reason.rawValue): \(count)")
        }
        for split in s.splits {
            lines.append("  split \(split.index)    \(TextFormat.clock(split.duration))")
        }
        if s.gpsLosses > 0 { lines.append("  gps lost   \(s.gpsLosses) times, \(s.bridgedGaps) gaps bridged") }
        lines.append("  input      \(report.lines) lines, \(report.malformedLines) malformed")
        return lines.joined(separator: "\n")
    }
}
