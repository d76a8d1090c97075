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
    /// Feeds a city run with a footpod whose count is `scale` times the truth.
    func runOutdoors(
        _ controller: inout SessionController,
        scale: Double,
        into output: inout SessionOutput
    ) {
        for epoch in FootpodRun(FootpodRun.cityLegs, scale: scale).epochs {
            if let fix = epoch.fix { controller.ingest(fix, into: &output) }
            controller.speed(footpodSample(epoch), into: &output)
        }
    }

    /// The footpod's reading of an epoch, received when the run says or at `receivedAt`.
    func footpodSample(_ epoch: FootpodRun.Epoch, receivedAt: Double? = nil) -> SpeedSensorSample {
        SpeedSensorSample(
            source: .footpod,
            reading: SpeedSample(speed: epoch.footpodSpeed, cadence: 170, totalDistance: epoch.footpodTotal),
            receivedAt: receivedAt ?? epoch.footpodReceivedAt
        )
    }

    @Test func aFootpodSevenPercentLongIsLearntWithinOnePercentAndCorrectsTheNextIndoorRun() throws {
        var controller = SessionController(
            configuration: .init(indoorSource: .footpod),
            ids: SessionIDGenerator(seed: 5)
        )
        controller.footpodConnected("F2:F2:F2:F2:F2:F2")
        var output = SessionOutput()
        _ = controller.handle(.start, id: "out", indoor: false, receivedAt: 999, systemTime: 0, into: &output)
        runOutdoors(&controller, scale: 1.07, into: &output)
        _ = controller.handle(.end, id: "out-end", receivedAt: 3000, systemTime: 0, into: &output)
        let learnt = try #require(controller.footpodCalibration.calibrator.overall)
        #expect(abs(learnt.factor * 1.07 - 1) < 0.01, "learnt \(learnt.factor), truth \(1 / 1.07)")
        #expect(learnt.stretches >= 5)
        #expect(learnt.standardError < 0.01)
        let rows = output.rows.compactMap {
            if case .calibration(_, let footpod, let stretch, _) = $0 { (footpod, stretch) } else { nil }
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
        runOutdoors(&controller, scale: 0.95, into: &output)
        _ = controller.handle(.end, id: "b", receivedAt: 3000, systemTime: 0, into: &output)
        let stored = output.rows.compactMap { if case .calibration(_, _, let stretch, _) = $0 { stretch } else { nil } }
        let restarted = SessionController(
            configuration: .init(indoorSource: .footpod, footpodStretches: stored),
            ids: SessionIDGenerator(seed: 7)
        )
        #expect(restarted.footpodCalibration.factors == controller.footpodCalibration.factors)
        let factor = try #require(restarted.footpodCalibration.calibrator.overall?.factor)
        #expect(abs(factor * 0.95 - 1) < 0.01)
    }

    /// The GPS and the footpod reach the core by different paths: a fix handled just after a
    /// footpod reading received a millisecond after it (as in a loaded guest, every tenth fix here)
    /// neither ends the stretch nor breaks its count. The straight before a tunnel is learnt whole.
    @Test func aFixHandledAfterALaterFootpodReadingKeepsTheStretch() throws {
        var controller = SessionController(configuration: .init(), ids: SessionIDGenerator(seed: 9))
        controller.footpodConnected("F2")
        var output = SessionOutput()
        _ = controller.handle(.start, id: "a", receivedAt: 999, systemTime: 0, into: &output)
        let run = FootpodRun([.init(heading: 90, speed: 3.0, duration: 80)], scale: 1.03, wander: 0.3)
        for (k, epoch) in run.epochs.enumerated() {
            if let fix = epoch.fix, k.isMultiple(of: 10), let at = fix.receivedAt {
                controller.speed(footpodSample(epoch, receivedAt: at + 0.001), into: &output)
                controller.ingest(fix, into: &output)
            } else {
                if let fix = epoch.fix { controller.ingest(fix, into: &output) }
                controller.speed(footpodSample(epoch), into: &output)
            }
        }
        _ = controller.handle(.end, id: "b", receivedAt: 1100, systemTime: 0, into: &output)
        let stretches = controller.footpodCalibration.calibrator.stretches
        #expect(stretches.count == 1, "\(stretches)")
        let stretch = try #require(stretches.first)
        #expect(stretch.end - stretch.start >= 70, "\(stretch)")
        #expect(abs(stretch.ratio * 1.03 - 1) < 0.01, "\(stretch)")
    }

    @Test func withoutAFootpodOrWithBadGPSNothingIsLearnt() {
        var controller = SessionController(configuration: .init(), ids: SessionIDGenerator(seed: 8))
        var output = SessionOutput()
        _ = controller.handle(.start, id: "a", receivedAt: 999, systemTime: 0, into: &output)
        // No footpod connected: stretches have no footpod to belong to, so no row.
        runOutdoors(&controller, scale: 1.07, into: &output)
        #expect(!output.rows.contains { if case .calibration = $0 { true } else { false } })
    }
}
