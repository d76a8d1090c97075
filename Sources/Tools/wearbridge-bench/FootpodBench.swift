import ArgumentParser
import SessionCore
import SpeedSensors
import StrideCalibration
import SyntheticReceivers
import TrackCore

/// The footpod's figures, each against its baseline in the same run: the factor learnt outdoors
/// from a run whose footpod reads 7 % long; an indoor run's distance after that calibration against
/// the uncalibrated footpod; a bending tunnel's distance with the footpod against GPS alone.
struct FootpodBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "footpod",
        abstract: "Footpod calibration, indoor distance after it, and a tunnel with and without the footpod."
    )

    @Option(help: "How much longer than the truth the footpod counts (1.07: 7 % long).")
    var scale = 1.07

    @Option(help: "Seeds of the outdoor runs (the receiver's noise).")
    var seeds = 5

    func run() throws {
        StandardOutput.line("footpod reads \(fmt((scale - 1) * 100, 1)) % long; \(seeds) outdoor runs (city, 36 min)")
        var learnt: [Double] = []
        var indoorCalibrated: [Double] = []
        var indoorRaw: [Double] = []
        for seed in 1...max(1, seeds) {
            var controller = SessionController(
                configuration: .init(indoorSource: .footpod),
                ids: SessionIDGenerator(seed: UInt64(seed))
            )
            controller.footpodConnected("bench")
            var output = SessionOutput()
            _ = controller.handle(.start, id: "out", indoor: false, receivedAt: 999, systemTime: 0, into: &output)
            feed(FootpodRun(FootpodRun.cityLegs, scale: scale, seed: UInt64(seed)), into: &controller, &output)
            _ = controller.handle(.end, id: "end", receivedAt: 9e3, systemTime: 0, into: &output)
            let factor = controller.footpodCalibration.calibrator.overall?.factor ?? 1
            learnt.append(factor)
            // Indoors: 5 km at changing paces, the footpod alone; calibrated, then as it counts.
            indoorCalibrated.append(indoor(&controller) - 1)
            var raw = SessionController(
                configuration: .init(indoorSource: .footpod),
                ids: SessionIDGenerator(seed: 99)
            )
            indoorRaw.append(indoor(&raw) - 1)
        }
        let truthFactor = 1 / scale
        let errors = learnt.map { ($0 / truthFactor - 1) * 100 }
        StandardOutput.line(
            "learnt factor: \(learnt.map { fmt($0, 4) }.joined(separator: ", ")) (truth \(fmt(truthFactor, 4))); "
                + "error \(errors.map { fmt($0, 2) }.joined(separator: ", ")) %, worst \(fmt(errors.map(abs).max() ?? 0, 2)) %"
        )
        let calibrated = indoorCalibrated.map { $0 * 100 }
        let raw = indoorRaw.map { $0 * 100 }
        StandardOutput.line(
            "indoor 5 km, calibrated: \(calibrated.map { fmt($0, 2) }.joined(separator: ", ")) % "
                + "(uncalibrated, the baseline: \(fmt(raw.first ?? 0, 2)) %); "
                + "ratio of worst errors \(fmt((calibrated.map(abs).max() ?? 0) / max(1e-9, abs(raw.first ?? 1)), 3))"
        )
        let alone = tunnel(footpod: false)
        let carried = tunnel(footpod: true)
        StandardOutput.line(
            "tunnel (170 s without a fix, bending): GPS alone \(fmt(alone * 100, 2)) %, with the footpod "
                + "\(fmt(carried * 100, 2)) %; ratio \(fmt(abs(carried) / max(1e-9, abs(alone)), 3))"
        )
    }

    private func feed(_ run: FootpodRun, into controller: inout SessionController, _ output: inout SessionOutput) {
        for epoch in run.epochs {
            if let fix = epoch.fix { controller.ingest(fix, into: &output) }
            let sample = SpeedSensorSample(
                source: .footpod,
                reading: SpeedSample(speed: epoch.footpodSpeed, cadence: 170, totalDistance: epoch.footpodTotal),
                receivedAt: epoch.footpodReceivedAt
            )
            controller.speed(sample, into: &output)
        }
    }

    /// An indoor 5 km at 2.8, 3.3 and 3.8 m/s on the footpod alone: the session's distance over the truth.
    private func indoor(_ controller: inout SessionController) -> Double {
        var output = SessionOutput()
        _ = controller.handle(.start, id: "in", indoor: true, receivedAt: 2e4, systemTime: 2e9, into: &output)
        var truth = 0.0
        var k = 0.0
        while truth < 5000 {
            let speed = [2.8, 3.3, 3.8][Int(truth / 1700) % 3]
            truth += speed
            k += 1
            let sample = SpeedSensorSample(
                source: .footpod,
                reading: SpeedSample(speed: speed * scale, cadence: 172, totalDistance: truth * scale),
                receivedAt: 2e4 + k
            )
            controller.speed(sample, into: &output)
        }
        let distance = controller.session?.track.distance ?? 0
        _ = controller.handle(.end, id: "in-end", receivedAt: 3e4, systemTime: 3e9, into: &output)
        return distance / truth
    }

    /// The tunnel run's distance error (fraction), the footpod calibrated from six stretches.
    private func tunnel(footpod: Bool) -> Double {
        let stretches = (0..<6).map { i in
            CalibrationStretch(
                start: Double(i * 100),
                end: Double(i * 100 + 60),
                gpsMetres: 200,
                footpodMetres: 200 * scale,
                speed: 3.2,
                band: 1
            )
        }
        var controller = SessionController(
            configuration: .init(footpodStretches: stretches),
            ids: SessionIDGenerator(seed: 3)
        )
        controller.footpodConnected("bench")
        var output = SessionOutput()
        _ = controller.handle(.start, id: "t", receivedAt: 999, systemTime: 0, into: &output)
        let run = FootpodRun(FootpodRun.tunnelLegs, scale: scale, blackout: FootpodRun.tunnel, wander: 0)
        for epoch in run.epochs {
            if let fix = epoch.fix { controller.ingest(fix, into: &output) }
            guard footpod else { continue }
            let sample = SpeedSensorSample(
                source: .footpod,
                reading: SpeedSample(speed: epoch.footpodSpeed, cadence: 170, totalDistance: epoch.footpodTotal),
                receivedAt: epoch.footpodReceivedAt
            )
            controller.speed(sample, into: &output)
        }
        return (controller.session?.track.distance ?? 0) / run.truth - 1
    }
}
