import Foundation
import SyntheticReceivers
import Testing

@testable import TrackCore

/// Ours against the receiver's Doppler integral over many draws of the noise: one session is one
/// draw, and both carry the Doppler's random error (2.4 m over a 10 Hz tempo, 4 m at 1 Hz), so a
/// difference of decimetres on one session says nothing.
@Suite struct DopplerIntegralTests {
    /// Mean error and root mean square (m) of ours and of the Doppler integral over `seeds`.
    static func errors(
        seeds: ClosedRange<UInt64>,
        _ make: (UInt64) -> (fixes: [Fix], truth: Double)
    ) -> (oursMean: Double, oursRMS: Double, dopplerMean: Double, dopplerRMS: Double) {
        var ours: [Double] = []
        var doppler: [Double] = []
        for seed in seeds {
            let (fixes, truth) = make(seed)
            ours.append(replayed(fixes, activity: .running).distance - truth)
            doppler.append(HonestReceiver.dopplerIntegral(fixes) - truth)
        }
        func mean(_ values: [Double]) -> Double { values.reduce(0, +) / Double(values.count) }
        func rms(_ values: [Double]) -> Double { mean(values.map { $0 * $0 }).squareRoot() }
        return (mean(ours), rms(ours), mean(doppler), rms(doppler))
    }

    /// With the simulated sessions' noise (the speed noised on its own, unbiased while moving) the
    /// integral is the best a filter can follow: ours must not drift from it by more than the
    /// course's noise costs (0.4 m over 200 seeds), nor add noise of its own.
    @Test func aTenHertzTempoStaysWithItsDopplerIntegral() {
        let e = Self.errors(seeds: 1...40) { HonestReceiver.tempo(rate: 10, seed: $0) }
        #expect(abs(e.oursMean - e.dopplerMean) < 0.8, "ours \(e.oursMean) m, integral \(e.dopplerMean) m")
        #expect(e.oursRMS < 1.1 * e.dopplerRMS, "rms ours \(e.oursRMS) m, integral \(e.dopplerRMS) m")
    }

    /// A receiver that solves for its velocity vector reports a speed that reads high by about
    /// sigma squared over twice the speed (3.8 m over the tempo). The filter follows its Doppler
    /// nearly one for one and keeps almost all of that (3.7 m over 200 seeds); it must not add to it.
    @Test func aVectorDopplerReadingHighIsNotMadeWorse() {
        let e = Self.errors(seeds: 1...40) { HonestReceiver.tempo(rate: 10, noise: .tenHertzVector, seed: $0) }
        #expect(e.dopplerMean > 2.5, "the integral's bias \(e.dopplerMean) m")
        #expect(e.oursMean < e.dopplerMean, "ours \(e.oursMean) m, integral \(e.dopplerMean) m")
        #expect(e.oursRMS <= e.dopplerRMS, "rms ours \(e.oursRMS) m, integral \(e.dopplerRMS) m")
    }

    /// Laps from a standing start to a stop: the integral counts its noise while standing, ours
    /// does not, so over many draws ours is the nearer.
    @Test func trackLapsAreNearerThanTheIntegral() {
        let e = Self.errors(seeds: 1...40) { HonestReceiver.trackLaps(seed: $0) }
        #expect(e.oursRMS < e.dopplerRMS, "rms ours \(e.oursRMS) m, integral \(e.dopplerRMS) m")
        #expect(e.oursMean < e.dopplerMean, "ours \(e.oursMean) m, integral \(e.dopplerMean) m")
    }

    /// The generator itself: without noise the integral is the route's length, so what the
    /// tests above measure is the noise and the core, not the sampling.
    @Test func withoutNoiseTheIntegralIsTheRoute() {
        let legs = [
            Route.Leg(heading: 40, speed: 4.5, duration: 60, turn: 10),
            .init(heading: 130, speed: 4.4, duration: 20, turn: 12),
        ]
        for rate in [1.0, 10.0] {
            let (fixes, truth) = HonestReceiver.session(
                legs,
                rate: rate,
                startSpeed: 4.5,
                noise: .init(speed: 0, speedCorrelation: 0, course: 0),
                seed: 1
            )
            #expect(abs(HonestReceiver.dopplerIntegral(fixes) - truth) < 0.05, "rate \(rate)")
        }
    }
}
