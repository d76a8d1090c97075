import Harness
import SessionCore
import SpeedSensors
import StrideCalibration
import SyntheticReceivers
import Testing
import TrackCore

/// Outdoors with a footpod: through a tunnel that bends, the footpod carries the distance; GPS
/// alone bridges the gap with a straight chord.
@Suite("A tunnel with and without a footpod")
struct TunnelTests {
    /// The tunnel run through a session; `scale`: the footpod count's scale, nil for none. Returns
    /// the truth, the session's distance and the largest change of the live distance from one
    /// second to the next around the tunnel's exit.
    func run(
        footpod scale: Double?,
        stretches: [CalibrationStretch] = [],
        blackout: ClosedRange<Double>? = FootpodRun.tunnel,
        footpodSkew: Double = 0
    ) -> (
        truth: Double, distance: Double, exitStep: Double
    ) {
        var controller = SessionController(
            configuration: .init(footpodStretches: stretches),
            ids: SessionIDGenerator(seed: 9)
        )
        controller.footpodConnected("F2")
        var output = SessionOutput()
        _ = controller.handle(.start, id: "s", receivedAt: 999, systemTime: 0, into: &output)
        let run = FootpodRun(FootpodRun.tunnelLegs, scale: scale ?? 1, blackout: blackout, wander: 0)
        var previous = 0.0
        var exitStep = 0.0
        for (k, epoch) in run.epochs.enumerated() {
            if let fix = epoch.fix { controller.ingest(fix, into: &output) }
            if scale != nil {
                let sample = SpeedSensorSample(
                    source: .footpod,
                    reading: SpeedSample(speed: epoch.footpodSpeed, cadence: 170, totalDistance: epoch.footpodTotal),
                    receivedAt: epoch.footpodReceivedAt + footpodSkew * Double(k)
                )
                controller.speed(sample, into: &output)
            }
            let now = controller.session!.track.distance
            if Double(k) > FootpodRun.tunnel.upperBound - 3, Double(k) < FootpodRun.tunnel.upperBound + 5 {
                exitStep = max(exitStep, now - previous)
            }
            previous = now
        }
        return (run.truth, controller.session!.track.distance, exitStep)
    }

    @Test func theFootpodCarriesTheDistanceThroughTheTunnelWithoutAJump() {
        let alone = run(footpod: nil)
        // GPS alone bridges 170 s with the chord: well short of the path.
        #expect(alone.distance / alone.truth - 1 < -0.03, "GPS alone: \(alone.distance) m of \(alone.truth) m")
        // A footpod 3 % long, calibrated outdoors before (its stretches say so).
        let learnt = (0..<6).map { i in
            CalibrationStretch(
                start: Double(i * 100),
                end: Double(i * 100 + 60),
                gpsMetres: 200,
                footpodMetres: 206,
                speed: 3.2,
                band: 1
            )
        }
        let carried = run(footpod: 1.03, stretches: learnt)
        #expect(
            abs(carried.distance / carried.truth - 1) < 0.01,
            "with the footpod: \(carried.distance) of \(carried.truth) m"
        )
        // The figure grew through the tunnel at the footpod's pace and did not leap at the exit.
        #expect(carried.exitStep < 3.2 * 3, "the largest step at the exit: \(carried.exitStep) m")
    }

    @Test func aFootpodNeverCalibratedLearnsOnTheWayInAndIsRightThroughTheTunnel() {
        // 5 % long and never calibrated (1.4 % over the tunnel alone): the first straight teaches it;
        // the stretch ends as the GPS
        // falls silent at the tunnel's mouth, so the tunnel is carried at the learnt factor.
        let uncalibrated = run(footpod: 1.05)
        #expect(
            abs(uncalibrated.distance / uncalibrated.truth - 1) < 0.01,
            "learnt on the way in: \(uncalibrated.distance) of \(uncalibrated.truth) m"
        )
    }

    @Test func aFootpodDatedPastTheGapThresholdWhileFixesFlowAddsNothing() {
        // Fixes all the way, but the footpod's readings land ever later on the GPS's clock (5 s
        // behind by the end: a receive path that slows down, as gpsfake under load in the VM): past
        // the gap threshold they look like a gap under way, and the next fix must take them back.
        let alone = run(footpod: nil, blackout: nil)
        let skewed = run(footpod: 1.03, blackout: nil, footpodSkew: 5.0 / 760)
        #expect(
            // One reading after the last fix stays carried (no later fix takes it back): 3.3 m.
            abs(skewed.distance - alone.distance) < 3.5,
            "GPS alone \(alone.distance) m, with the skewed footpod \(skewed.distance) m"
        )
    }
}
