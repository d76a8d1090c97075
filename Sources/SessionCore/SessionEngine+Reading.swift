import TrackCore

extension SessionEngine {
    /// The open session's live figures at `now` (what a periodic cue speaks).
    func reading(_ now: Instant) -> LiveReading? {
        guard let session = controller.session else { return nil }
        let summary = session.track.summary
        let speed = session.track.currentSpeed ?? 0
        let beat = strap?.report(now: now.monotonic)
        return LiveReading(
            sessionID: session.id,
            state: controller.lifecycle.state,
            distance: summary.distance,
            elapsed: summary.elapsed,
            moving: summary.moving,
            averagePace: summary.averagePace,
            currentPace: speed > 0.3 ? 1000 / speed : nil,
            heartRate: beat?.link == .streaming ? beat?.bpm : nil,
            averageHeartRate: summary.heartRate?.average,
            at: now.monotonic
        )
    }

    /// A session that just ended: its recorded summary as a final reading, ahead of the `ended`
    /// announcement, so the closing cue speaks the totals the log holds.
    mutating func finalReadings(at now: Double) {
        for row in output.rows {
            guard case .finish(let id, let summary, _, _) = row else { continue }
            let reading = LiveReading(
                sessionID: id,
                state: .idle,
                distance: summary.distance,
                elapsed: summary.elapsed,
                moving: summary.moving,
                averagePace: summary.averagePace,
                averageHeartRate: summary.heartRate?.average,
                isFinal: true,
                at: now
            )
            actions.append(.reading(reading))
        }
    }
}
