import StrideCalibration
import TrackCore

extension SessionController {
    /// The footpod (re)connected: the stretches learnt from now on are its own.
    public mutating func footpodConnected(_ address: String) {
        footpodCalibration.connected(address)
    }

    /// An outdoor session's fix and the footpod beside it: a straight, steady stretch run with GPS
    /// the core judged good (accepted, not bridged or reset, not paused, not lost) teaches the
    /// footpod's factor.
    mutating func learnStride(from fix: Fix, _ outcome: FixOutcome, into output: inout SessionOutput) {
        guard let open = session, open.track.distanceSource == .gps, let receivedAt = fix.receivedAt,
            case .accepted(let point) = outcome.verdict
        else { return }
        let broken = outcome.events.contains { event in
            switch event {
            case .gapBridged, .filterReset, .timelineReset, .gpsLost, .autoPaused: true
            default: false
            }
        }
        let usable = !broken && !open.track.isGPSLost && !open.track.isAutoPaused && lifecycle.state == .active
        let learnt = footpodCalibration.fix(
            at: receivedAt,
            position: point.position,
            gpsDistance: open.track.distance,
            usable: usable
        )
        if let learnt { strideLearnt(learnt, into: &output) }
    }

    /// A stretch learnt in the open session: its row, and what it taught carries the session
    /// through the next tunnel already.
    mutating func strideLearnt(_ learnt: CalibrationStretch, into output: inout SessionOutput) {
        guard let open = session else { return }
        if open.track.distanceSource == .gps { session?.track.useFootpod(footpodCalibration.factors) }
        if !isRecovering { calibrationLearnt(learnt, sessionID: open.id, into: &output) }
    }

    /// A fixed-distance calibration ended: `declared` metres over what the footpod counted since
    /// the mark. The stretch (logged in the session if one is open) or nil when it teaches nothing.
    public mutating func calibrateFixed(
        declared: Double,
        counted: Double,
        from start: Double,
        to end: Double,
        into output: inout SessionOutput
    ) -> CalibrationStretch? {
        guard let footpod = footpodCalibration.footpod,
            let stretch = footpodCalibration.fixed(declared: declared, counted: counted, from: start, to: end)
        else { return nil }
        output.rows.append(.calibration(sessionID: session?.id, footpod: footpod, stretch, fixed: true))
        return stretch
    }

    /// A stretch learnt: a row for the calibration's stored history.
    mutating func calibrationLearnt(_ stretch: CalibrationStretch, sessionID: String, into output: inout SessionOutput)
    {
        guard let footpod = footpodCalibration.footpod else { return }
        output.rows.append(.calibration(sessionID: sessionID, footpod: footpod, stretch))
    }
}
