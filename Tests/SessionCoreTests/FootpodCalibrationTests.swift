import Harness
import SessionCore
import SpeedSensors
import StrideCalibration
import SyntheticReceivers
import Testing
import TrackCore

/// The footpod's calibration end to end in the session core: an outdoor run with GPS and a footpod
/// whose stride is off by 7 % teaches its factor; the next indoor run is corrected by it.
@Suite("Footpod calibration in the session")
struct FootpodCalibrationTests {
    static let frame = LocalFrame(origin: GeoPoint(latitude: 48.137, longitude: 11.575))
    static let t0 = 1_750_000_000.0

    /// A city run: long straights at changing paces, corners, a stop at a crossing.
    static let legs: [Route.Leg] = [
        .init(heading: 90, speed: 3.0, duration: 240), .init(heading: 0, speed: 3.4, duration: 180),
        .init(heading: 270, speed: 2.9, duration: 300), .init(heading: 0, speed: 0, duration: 20, turn: 4),
        .init(heading: 0, speed: 3.2, duration: 200), .init(heading: 90, speed: 3.6, duration: 260),
        .init(heading: 180, speed: 3.1, duration: 320), .init(heading: 270, speed: 3.3, duration: 240),
    ]

    /// Feeds the run: one fix a second with a wandering receiver error and Doppler noise, and the
    /// footpod's notification 0.4 s after each fix, counting `scale` times the true distance.
    func runOutdoors(
        _ controller: inout SessionController,
        scale: Double,
        into output: inout SessionOutput
    ) -> (truth: Double, fed: Int) {
        var rng = SplitMix(seed: 23)
        var wander = Wander(tau: 30, sigma: 2)
        let (states, _) = Route.sample(Self.legs)
        var travelled = 0.0
        for (k, state) in states.enumerated() {
            if k > 0 { travelled += 0.5 * (states[k - 1].speed + state.speed) }
            let error = wander.step(1, &rng)
            let position = Self.frame.unproject(
                LocalPoint(
                    east: state.east + error.east + rng.gaussian(),
                    north: state.north + error.north + rng.gaussian()
                )
            )
            let time = Self.t0 + Double(k)
            let fix = Fix(
                mode: 3,
                time: GPSTime(seconds: time),
                position: position,
                errorEast: 3,
                errorNorth: 3,
                horizontalError: 4,
                speed: max(0, state.speed + 0.1 * rng.gaussian()),
                track: state.heading,
                speedError: 0.3,
                receivedAt: 1000 + Double(k) + 0.1
            )
            controller.ingest(fix, into: &output)
            // The footpod: its stride off by `scale`, each step's length a little noisy.
            let footpodSpeed = state.speed * scale * (1 + 0.01 * rng.gaussian())
            let sample = SpeedSensorSample(
                source: .footpod,
                reading: SpeedSample(speed: footpodSpeed, cadence: 170, totalDistance: travelled * scale),
                receivedAt: 1000 + Double(k) + 0.5
            )
            controller.speed(sample, into: &output)
        }
        return (travelled, states.count)
    }

    @Test func aFootpodSevenPercentLongIsLearntWithinOnePercentAndCorrectsTheNextIndoorRun() throws {
        var controller = SessionController(
            configuration: .init(indoorSource: .footpod),
            ids: SessionIDGenerator(seed: 5)
        )
        controller.footpodConnected("F2:F2:F2:F2:F2:F2")
        var output = SessionOutput()
        _ = controller.handle(.start, id: "out", indoor: false, receivedAt: 999, systemTime: 0, into: &output)
        _ = runOutdoors(&controller, scale: 1.07, into: &output)
        _ = controller.handle(.end, id: "out-end", receivedAt: 3000, systemTime: 0, into: &output)
        let learnt = try #require(controller.footpodCalibration.calibrator.overall)
        #expect(abs(learnt.factor * 1.07 - 1) < 0.01, "learnt \(learnt.factor), truth \(1 / 1.07)")
        #expect(learnt.stretches >= 5)
        #expect(learnt.standardError < 0.01)
        let rows = output.rows.compactMap {
            if case .calibration(_, let footpod, let stretch) = $0 { (footpod, stretch) } else { nil }
        }
        #expect(rows.count == learnt.stretches && rows.allSatisfy { $0.0 == "F2:F2:F2:F2:F2:F2" })

        // Indoors: 3 km on the footpod alone, its count 7 % long; the session's distance is right.
        _ = controller.handle(.start, id: "in", indoor: true, receivedAt: 4000, systemTime: 1e9, into: &output)
        for k in 0...1000 {
            let sample = SpeedSensorSample(
                source: .footpod,
                reading: SpeedSample(speed: 3.0 * 1.07, cadence: 172, totalDistance: 5000 + 3.0 * 1.07 * Double(k)),
                receivedAt: 4000 + Double(k)
            )
            controller.speed(sample, into: &output)
        }
        let indoor = try #require(controller.session).track.distance
        #expect(abs(indoor / 3000 - 1) < 0.01, "indoor \(indoor) m against 3000 m run")
    }

    @Test func theFactorIsRebuiltFromTheStoredStretchesAtTheNextStart() throws {
        var controller = SessionController(configuration: .init(), ids: SessionIDGenerator(seed: 6))
        controller.footpodConnected("F2")
        var output = SessionOutput()
        _ = controller.handle(.start, id: "a", receivedAt: 999, systemTime: 0, into: &output)
        _ = runOutdoors(&controller, scale: 0.95, into: &output)
        _ = controller.handle(.end, id: "b", receivedAt: 3000, systemTime: 0, into: &output)
        let stored = output.rows.compactMap { if case .calibration(_, _, let stretch) = $0 { stretch } else { nil } }
        let restarted = SessionController(
            configuration: .init(indoorSource: .footpod, footpodStretches: stored),
            ids: SessionIDGenerator(seed: 7)
        )
        #expect(restarted.footpodCalibration.factors == controller.footpodCalibration.factors)
        let factor = try #require(restarted.footpodCalibration.calibrator.overall?.factor)
        #expect(abs(factor * 0.95 - 1) < 0.01)
    }

    @Test func withoutAFootpodOrWithBadGPSNothingIsLearnt() {
        var controller = SessionController(configuration: .init(), ids: SessionIDGenerator(seed: 8))
        var output = SessionOutput()
        _ = controller.handle(.start, id: "a", receivedAt: 999, systemTime: 0, into: &output)
        // No footpod connected: stretches have no footpod to belong to, so no row.
        _ = runOutdoors(&controller, scale: 1.07, into: &output)
        #expect(!output.rows.contains { if case .calibration = $0 { true } else { false } })
    }
}
