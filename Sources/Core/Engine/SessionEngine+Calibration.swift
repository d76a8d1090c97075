import SessionCore
import TrackCore

extension SessionEngine {
    /// A footpod reading older than this (s) is not "now": a calibration mark needs a fresh one.
    static let calibrationFreshness = 5.0

    /// A fixed-distance calibration ("run 400 m on the track, then say done"): without `metres`
    /// it marks the footpod's count now; with them, what the footpod counted since the mark is
    /// compared with the distance run and joins the footpod's calibration (the stretch's row in
    /// the batch of the command's own); the refusal, if any, and what to say.
    mutating func calibrationAnswer(_ request: CommandRequest, _ now: Instant) -> (RefusalCode?, String) {
        guard let footpod = speedSensors.first(where: { $0.kind == .footpod }) else {
            return (.notReady, "no footpod is configured")
        }
        guard let count = footpod.count, now.monotonic - count.at <= Self.calibrationFreshness else {
            return (.notReady, "the footpod is not streaming: no count to measure from")
        }
        guard let metres = request.metres else {
            calibrationMark = count
            return (nil, "calibration started at the footpod's \(Int(count.total)) m: run the distance, then say it")
        }
        guard let mark = calibrationMark else {
            return (.invalid, "no calibration was started: start it where the measured distance begins")
        }
        let counted = count.total - mark.total
        var produced = SessionOutput()
        guard
            let stretch = controller.calibrateFixed(
                declared: metres,
                counted: counted,
                from: mark.at,
                to: count.at,
                into: &produced
            )
        else {
            return (
                .invalid,
                "the footpod counted \(Int(counted.rounded())) m for \(Int(metres.rounded())) m run: "
                    + "too short (50 m at least) or too far apart (25 %) to learn from"
            )
        }
        calibrationMark = nil
        output.rows += produced.rows
        let factor = controller.footpodCalibration.calibrator.overall?.factor ?? stretch.ratio
        let long = (1 / stretch.ratio - 1) * 100
        return (
            nil,
            "the footpod counted \(Int(counted.rounded())) m for \(Int(metres.rounded())) m "
                + "(\((abs(long) * 10).rounded() / 10) % \(long >= 0 ? "long" : "short")); "
                + "its factor is now \((factor * 10_000).rounded() / 10_000)"
        )
    }
}
