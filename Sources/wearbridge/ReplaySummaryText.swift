import Replay
import TrackCore

/// The human-readable replay summary: what a field tester reads on a terminal.
struct ReplaySummaryText {
    let report: ReplayReport

    var text: String {
        let s = report.summary
        var lines = [
            "\(report.file) (\(s.activity.rawValue))",
            "  distance   \(Self.format(s.distance / 1000, 3)) km",
            "  elapsed    \(Self.clock(s.elapsed))   moving \(Self.clock(s.moving))   paused \(Self.clock(s.paused))"
                + " (\(s.autoPauses) auto-pauses)",
            "  avg pace   \(s.averagePace.map { Self.clock($0) + " /km" } ?? "-")",
            "  fixes      \(s.accepted) accepted, \(s.rejectedTotal) rejected",
        ]
        for (reason, count) in s.rejected.sorted(by: { $0.key < $1.key }) {
            lines.append("             \(reason.rawValue): \(count)")
        }
        for split in s.splits {
            lines.append("  split \(split.index)    \(Self.clock(split.duration))")
        }
        if s.gpsLosses > 0 { lines.append("  gps lost   \(s.gpsLosses) times, \(s.bridgedGaps) gaps bridged") }
        lines.append("  input      \(report.lines) lines, \(report.malformedLines) malformed")
        return lines.joined(separator: "\n")
    }

    static func clock(_ seconds: Double) -> String {
        let total = Int(seconds.rounded())
        let (h, m, s) = (total / 3600, total / 60 % 60, total % 60)
        let mm = m < 10 ? "0\(m)" : "\(m)", ss = s < 10 ? "0\(s)" : "\(s)"
        return h > 0 ? "\(h):\(mm):\(ss)" : "\(m):\(ss)"
    }

    static func format(_ value: Double, _ places: Int) -> String {
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        let scaled = Int((value * scale).rounded())
        let whole = scaled / Int(scale), fraction = abs(scaled % Int(scale))
        let digits = String(fraction)
        return "\(whole).\(String(repeating: "0", count: places - digits.count))\(digits)"
    }
}
