import Foundation

/// One session's distance forward (live) and after the Rauch-Tung-Striebel pass over the same
/// filter steps, beside the Doppler integral: whether a smoother is worth adding (issue 25).
struct SmoothingRow {
    let name: String
    let truth: Double
    let forward: Double
    let smoothed: Double
    let doppler: Double

    static func print(_ rows: [SmoothingRow]) {
        StandardOutput.line("")
        StandardOutput.line("the Rauch-Tung-Striebel pass over the same filter steps (error against truth, metres)")
        StandardOutput.line(
            "session".padding(toLength: 26, withPad: " ", startingAt: 0) + rightAligned("truth m", 10)
                + rightAligned("forward", 10) + rightAligned("smoothed", 10) + rightAligned("Doppler", 10)
                + rightAligned("fwd %", 9) + rightAligned("smooth %", 10)
        )
        for row in rows {
            func error(_ value: Double) -> String { String(format: "%+.1f", value - row.truth) }
            func percent(_ value: Double) -> String {
                row.truth == 0 ? "-" : String(format: "%+.2f", (value - row.truth) / row.truth * 100)
            }
            StandardOutput.line(
                row.name.padding(toLength: 26, withPad: " ", startingAt: 0)
                    + rightAligned(String(format: "%.1f", row.truth), 10) + rightAligned(error(row.forward), 10)
                    + rightAligned(error(row.smoothed), 10) + rightAligned(error(row.doppler), 10)
                    + rightAligned(percent(row.forward), 9) + rightAligned(percent(row.smoothed), 10)
            )
        }
    }
}
