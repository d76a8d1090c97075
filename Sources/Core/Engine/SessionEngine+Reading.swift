import SessionCore
import TrackCore

extension SessionEngine {
    /// The open session's live figures at `now` (what a periodic cue speaks).
    func reading(_ now: Instant) -> LiveReading? {
        guard let session = controller.session else { return nil }
        let beat = strap?.report(now: now.monotonic)
        var reading = LiveReading(
            sessionID: session.id,
            state: controller.lifecycle.state,
            summary: session.track.summary,
            speed: session.track.currentSpeed ?? 0,
            heartRate: beat?.link == .streaming ? beat?.bpm : nil,
            at: now.monotonic
        )
        if let footpod = speedSensors.first(where: { $0.kind == .footpod })?.report(now: now.monotonic),
            footpod.link == .streaming, (footpod.lastSampleAge ?? .infinity) < 5
        {
            reading.cadence = footpod.cadence
        } else if let cadence = imuCadence(now: now.monotonic) {
            reading.cadence = cadence
        }
        if let race, race.session == session.id {
            let status = race.tracker.status(now: now.monotonic)
            reading.racePartner = status.partner
            reading.raceGap = status.link == .lost ? nil : status.gapMetres
            reading.raceGapSeconds = status.link == .lost ? nil : status.gapSeconds
        }
        return reading
    }

    /// A session that just ended: its recorded summary as a final reading, ahead of the `ended`
    /// announcement, so the closing cue speaks the totals the log holds.
    mutating func finalReadings(at now: Double) {
        for row in output.rows {
            guard case .finish(let id, let summary, _, _) = row else { continue }
            let reading = LiveReading(final: summary, sessionID: id, at: now)
            actions.append(.reading(reading))
        }
    }
}
