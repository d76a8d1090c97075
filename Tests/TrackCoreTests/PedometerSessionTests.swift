import SyntheticReceivers
import Testing
import TrackCore

/// The pedometer's word in an outdoor session: its steps added up, and "still" as evidence for
/// the auto-pause where the receiver shows motion the wearer does not make (a receiver drifting at
/// a building's foot, 1.5 m/s of positions and Doppler that agree with each other, not with the
/// wearer).
@Suite struct PedometerSessionTests {
    /// Standing 60 s with a receiver drifting east at `drift` m/s, then moving 120 s at `pace`; the
    /// pedometer reading a second on the session's clock, still while standing (when `says`).
    func session(
        activity: Activity = .running,
        drift: Double = 1.5,
        pace: Double = 3,
        pedometer says: Bool,
        every interval: Double = 1,
        steps: (Double) -> Int = { _ in 0 }
    ) -> TrackSession {
        var gen = Synthetic(noise: 0.5, dopplerNoise: 0.05)
        let (fixes, _) = gen.fixes(duration: 180) { t in (t < 60 ? drift * t : 60 * drift + pace * (t - 60), 0) }
        var session = TrackSession(activity: activity)
        for fix in fixes {
            let t = fix.time!.since(gen.start)
            if says, t.truncatingRemainder(dividingBy: interval) == 0 {
                session.pedometer(steps: steps(t), still: t < 60, at: fix.time!)
            }
            _ = session.ingest(fix)
        }
        return session
    }

    @Test func stillFromThePedometerPausesAStopTheReceiverDriftsThrough() {
        let without = session(pedometer: false)
        #expect(without.autoPauseCount == 0, "the drift alone is motion")
        let with = session(pedometer: true)
        #expect(with.autoPauseCount == 1)
        // Paused from the dwell's start until running resumed it: most of the minute.
        #expect(with.pausedTime > 50 && with.pausedTime < 62, "\(with.pausedTime) s")
    }

    @Test func aRideIsNeverPausedByItsLegs() {
        // Past the ride's own pause speed (2 m/s), so that only the legs could pause it.
        let ride = session(activity: .cycling, drift: 3, pace: 7, pedometer: true)
        #expect(ride.autoPauseCount == 0)
    }

    @Test func aStillThatIsNotRenewedLapses() {
        // A reading every 10 s: each "still" holds 3 s, never the 4 s the running profile dwells.
        let sparse = session(pedometer: true, every: 10)
        #expect(sparse.autoPauseCount == 0)
    }

    @Test func stepsAreTheCountsIncreaseAndARestartedCountAddsFromZero() {
        var counts = [1000, 1010, 1030, 1030, 12, 40]
        var session = TrackSession(activity: .walking)
        #expect(session.stepCount == nil)
        for (i, count) in counts.enumerated() {
            session.pedometer(steps: count, still: false, at: GPSTime(seconds: 1_750_000_000 + Double(i)))
        }
        // 10 + 20 + 0, then the pedometer began again: 12 + 28.
        #expect(session.stepCount == 70)
        #expect(session.summary.steps == 70)
        counts.removeAll()
    }
}
