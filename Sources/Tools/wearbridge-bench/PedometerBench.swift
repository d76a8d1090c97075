import ArgumentParser
import Engine
import Gait
import SessionCore
import SpeedSensors
import SyntheticReceivers
import TrackCore

/// Distance from steps, against the truth: an outdoor run with GPS teaches the wearer's stride (the
/// pedometer's metres, at the prior step length, against the GPS distance), then an indoor 5 km on
/// the steps alone is measured calibrated against uncalibrated, in the same run. The accelerometer
/// is synthesized at 100 Hz (`SyntheticGait`, hip) at the cadence a runner takes at each speed.
struct PedometerBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pedometer",
        abstract: "Indoor distance from an IMU's steps, after a GPS calibration and without one."
    )

    @Option(help: "Seeds of the outdoor runs (the receiver's noise and the gait's).")
    var seeds = 3

    @Option(help: "The wearer's cadence at 0 m/s, by the line cadence = this + slope × speed (steps a minute).")
    var cadenceBase = 150.0

    @Option(help: "The slope of that line (steps a minute per m/s).")
    var cadenceSlope = 7.0

    /// Steps a minute and metres a step for the wearer at a speed: quicker steps as well as longer
    /// ones, the length what the cadence leaves of the speed.
    func gait(_ speed: Double) -> (cadence: Double, length: Double) {
        let cadence = cadenceBase + cadenceSlope * speed
        return (cadence, speed * 60 / cadence)
    }

    func run() throws {
        let priors = [2.8, 3.3, 3.8].map { speed in
            let step = gait(speed)
            return "\(fmt(speed, 1)) m/s: \(fmt(step.cadence, 0))/min, \(fmt(step.length, 3)) m a step, the prior "
                + "\(fmt((StepLength.prior(cadence: step.cadence) / step.length - 1) * 100, 1)) %"
        }
        StandardOutput.line(
            "the wearer: \(priors.joined(separator: "; ")); \(seeds) outdoor runs (city, 36 min); hip, 100 Hz"
        )
        var calibrated: [Double] = []
        var raw: [Double] = []
        var factors: [Double] = []
        for seed in 1...max(1, seeds) {
            var controller = SessionController(
                configuration: .init(indoorSource: .steps),
                ids: SessionIDGenerator(seed: UInt64(seed))
            )
            controller.footpodConnected(SessionEngine.stepsSensor(.hip))
            var output = SessionOutput()
            _ = controller.handle(.start, id: "out", indoor: false, receivedAt: 999, systemTime: 0, into: &output)
            let run = FootpodRun(FootpodRun.cityLegs, scale: 1, seed: UInt64(seed))
            // The run's speed, 30 s at a time, as bouts of the gait at that speed.
            var bouts: [SyntheticGait.Bout] = []
            for start in stride(from: 1, to: run.epochs.count, by: 30) {
                let end = min(run.epochs.count - 1, start + 30)
                let metres = run.epochs[end].truth - run.epochs[start - 1].truth
                let speed = metres / Double(end - start + 1)
                let step = gait(speed)
                bouts.append(.init(cadence: step.cadence, seconds: Double(end - start + 1), impact: 9))
            }
            let recording = SyntheticGait.recording(bouts, placement: .hip, seed: UInt64(seed))
            var pedometer = Pedometer(placement: .hip)
            var next = 0
            for epoch in run.epochs {
                // The pedometer's readings up to this epoch, on the same monotonic clock as the fixes.
                while next < recording.samples.count, 1000 + recording.samples[next].time <= epoch.footpodReceivedAt {
                    var sample = recording.samples[next]
                    sample.time += 1000
                    next += 1
                    guard let reading = pedometer.add(sample) else { continue }
                    controller.speed(SpeedSensorSample(pedometer: reading), into: &output)
                }
                if let fix = epoch.fix { controller.ingest(fix, into: &output) }
            }
            _ = controller.handle(.end, id: "end", receivedAt: 9e3, systemTime: 0, into: &output)
            factors.append(controller.footpodCalibration.calibrator.overall?.factor ?? 1)
            calibrated.append(indoor(&controller, seed: seed) - 1)
            var uncalibrated = SessionController(
                configuration: .init(indoorSource: .steps),
                ids: SessionIDGenerator(seed: 99)
            )
            raw.append(indoor(&uncalibrated, seed: seed) - 1)
        }
        StandardOutput.line(
            "learnt factor (the wearer's step over the prior's): \(factors.map { fmt($0, 4) }.joined(separator: ", "))"
        )
        let worstCalibrated = calibrated.map { abs($0) }.max() ?? 0
        let worstRaw = raw.map { abs($0) }.max() ?? 1
        StandardOutput.line(
            "indoor 5 km from steps, calibrated: \(calibrated.map { fmt($0 * 100, 2) }.joined(separator: ", ")) %; "
                + "uncalibrated (the baseline): \(raw.map { fmt($0 * 100, 2) }.joined(separator: ", ")) %; "
                + "ratio of worst errors \(fmt(worstCalibrated / max(1e-9, worstRaw), 3))"
        )
    }

    /// An indoor 5 km at 2.8, 3.3 and 3.8 m/s on the steps alone: the session's distance over the truth.
    private func indoor(_ controller: inout SessionController, seed: Int) -> Double {
        var output = SessionOutput()
        _ = controller.handle(.start, id: "in", indoor: true, receivedAt: 2e4, systemTime: 2e9, into: &output)
        var bouts: [SyntheticGait.Bout] = []
        var truth = 0.0
        while truth < 5000 {
            let speed = [2.8, 3.3, 3.8][bouts.count % 3]
            let seconds = 1700 / speed
            bouts.append(.init(cadence: gait(speed).cadence, seconds: seconds, impact: 9))
            truth += 1700
        }
        let recording = SyntheticGait.recording(bouts, placement: .hip, seed: UInt64(100 + seed))
        // The truth is the steps taken, each at its bout's length.
        var metres = 0.0
        var boutEnd = 0.0
        var bout = -1
        for step in recording.steps {
            while step >= boutEnd {
                bout += 1
                boutEnd += bouts[bout].seconds
            }
            let speed = [2.8, 3.3, 3.8][bout % 3]
            metres += gait(speed).length
        }
        var pedometer = Pedometer(placement: .hip)
        for var sample in recording.samples {
            sample.time += 2e4
            if let reading = pedometer.add(sample) {
                controller.speed(SpeedSensorSample(pedometer: reading), into: &output)
            }
        }
        let distance = controller.session?.track.distance ?? 0
        _ = controller.handle(.end, id: "in-end", receivedAt: 3e4, systemTime: 3e9, into: &output)
        return distance / metres
    }
}
