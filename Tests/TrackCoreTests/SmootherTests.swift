import Harness
import SyntheticReceivers
import Testing

@testable import TrackCore

/// The Rauch-Tung-Striebel pass behind `smoothedDistance` (issue 25's evidence).
@Suite struct SmootherTests {
    /// Without process noise the state is one line through all the fixes, so smoothing must put
    /// every step on the line the whole session found (the last posterior), whatever the noise.
    @Test func withoutProcessNoiseEveryStepLiesOnTheWholeSessionsLine() {
        var rng = SplitMix(seed: 11)
        var filter = AxisFilter(position: 0, positionVariance: 25, velocity: 0, velocityVariance: 4)
        var posteriors = [filter]
        var predictions: [AxisFilter] = []
        for i in 1...40 {
            filter.predict(dt: 1, q: 0)
            predictions.append(filter)
            filter.updatePosition(3 * Double(i) + 4 * rng.gaussian(), variance: 16)
            posteriors.append(filter)
        }
        var later = filter.moment
        for k in stride(from: posteriors.count - 2, through: 0, by: -1) {
            later = posteriors[k].smoothed(nextPredicted: predictions[k], nextSmoothed: later, dt: 1)
            let onTheLine = filter.position - filter.velocity * Double(posteriors.count - 1 - k)
            #expect(abs(later.velocity - filter.velocity) < 1e-6, "step \(k)")
            #expect(abs(later.position - onTheLine) < 1e-6, "step \(k)")
        }
        // The forward filter's first velocities are far off; the smoothed ones are not.
        #expect(abs(posteriors[3].velocity - filter.velocity) > 0.1)
    }

    /// Standing still credits nothing, before or after the pass.
    @Test func aStandingSessionStaysAtZero() {
        var synthetic = Synthetic(noise: 3, dopplerNoise: 0.1)
        let (fixes, _) = synthetic.fixes(duration: 120) { _ in (0, 0) }
        let session = replayed(fixes, activity: .running, recordingSteps: true)
        #expect(session.distance == 0)
        #expect(session.smoothedDistance == 0)
    }

    /// Without Doppler the forward speed comes from noisy positions and reads high; the pass
    /// smooths the velocity with the fixes after each step, so the sum comes nearer the truth.
    @Test func smoothingBringsAPositionOnlyRunNearerTheTruth() {
        for seed in [3, 5, 9] as [UInt64] {
            var synthetic = Synthetic(noise: 4, eph: 10, rng: SplitMix(seed: seed))
            var (fixes, truth) = synthetic.fixes(duration: 600) { t in (3 * t, 0) }
            for index in fixes.indices {
                fixes[index].speed = nil
                fixes[index].track = nil
            }
            let session = replayed(fixes, activity: .running, recordingSteps: true)
            let smoothed = session.smoothedDistance ?? .nan
            #expect(
                abs(smoothed - truth) < abs(session.distance - truth),
                "seed \(seed): truth \(truth), forward \(session.distance), smoothed \(smoothed)"
            )
        }
    }

    /// A session not asked to record keeps nothing, and says so.
    @Test func aSessionNotRecordingHasNoSmoothedDistance() {
        var synthetic = Synthetic()
        let (fixes, _) = synthetic.fixes(duration: 30) { t in (3 * t, 0) }
        #expect(replayed(fixes, activity: .running).smoothedDistance == nil)
    }
}
