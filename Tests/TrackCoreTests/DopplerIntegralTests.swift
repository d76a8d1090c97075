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
        _ make: (UInt64) -> HonestReceiver.Draw
    ) -> (oursMean: Double, oursRMS: Double, dopplerMean: Double, dopplerRMS: Double) {
        var ours: [Double] = []
        var doppler: [Double] = []
        for seed in seeds {
            let draw = make(seed)
            ours.append(replayed(draw.fixes, activity: .running).distance - draw.truth)
            doppler.append(HonestReceiver.dopplerIntegral(draw.fixes) - draw.truth)
        }
        func mean(_ values: [Double]) -> Double { values.reduce(0, +) / Double(values.count) }
        func rms(_ values: [Double]) -> Double { mean(values.map { $0 * $0 }).squareRoot() }
        return (mean(ours), rms(ours), mean(doppler), rms(doppler))
    }

    /// With the simulated sessions' noise (the speed noised on its own, unbiased while moving) the
    /// integral is the best a filter can follow, and ours integrates the receiver's speed wherever
    /// the filter finds it sound: on a run without stops it stays within centimetres of the
    /// integral and adds no noise. The filter's own speed, the length of a velocity averaged over
    /// noisy courses, read 0.37 m short over the same run (200 seeds).
    @Test func aTenHertzTempoStaysWithItsDopplerIntegral() {
        let e = Self.errors(seeds: 1...40) { HonestReceiver.tempo(rate: 10, seed: $0) }
        #expect(abs(e.oursMean - e.dopplerMean) < 0.05, "ours \(e.oursMean) m, integral \(e.dopplerMean) m")
        #expect(e.oursRMS < 1.01 * e.dopplerRMS, "rms ours \(e.oursRMS) m, integral \(e.dopplerRMS) m")
    }

    /// A receiver that solves for its velocity vector reports a speed that reads high by about
    /// sigma squared over twice the speed (3.8 m over the tempo). Ours keeps that bias, as the
    /// integral does, and adds nothing to it.
    @Test func aVectorDopplerReadingHighIsNotMadeWorse() {
        let e = Self.errors(seeds: 1...40) { HonestReceiver.tempo(rate: 10, noise: .tenHertzVector, seed: $0) }
        #expect(e.dopplerMean > 2.5, "the integral's bias \(e.dopplerMean) m")
        #expect(abs(e.oursMean - e.dopplerMean) < 0.05, "ours \(e.oursMean) m, integral \(e.dopplerMean) m")
        #expect(e.oursRMS < 1.01 * e.dopplerRMS, "rms ours \(e.oursRMS) m, integral \(e.dopplerRMS) m")
    }

    /// The receiver's speed is judged before it is integrated: a glitch to three times the pace
    /// (one fix in twenty) is far from what the filter predicts and is left out, where the
    /// integral takes every one of them.
    @Test func aSpeedGlitchIsNotIntegrated() {
        var gen = Synthetic(noise: 2, dopplerNoise: 0.1)
        var (fixes, truth) = gen.fixes(duration: 600) { t in (3 * t, 0) }
        for index in stride(from: 30, to: fixes.count, by: 20) { fixes[index].speed = 9 }
        let ours = run(fixes).distance
        let integral = HonestReceiver.dopplerIntegral(fixes)
        #expect(integral - truth > 150, "the integral \(integral) m of \(truth) m")
        #expect(abs(ours - truth) / truth < 0.002, "ours \(ours) m of \(truth) m")
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
            let draw = HonestReceiver.session(
                legs,
                rate: rate,
                startSpeed: 4.5,
                noise: .init(speed: 0, speedCorrelation: 0, course: 0),
                seed: 1
            )
            #expect(abs(HonestReceiver.dopplerIntegral(draw.fixes) - draw.truth) < 0.05, "rate \(rate)")
            // 60 + 20 s held and 10 + 12 s turning, all of it moving.
            #expect(draw.moving == 102, "rate \(rate): \(draw.moving) s moving")
        }
    }
}
