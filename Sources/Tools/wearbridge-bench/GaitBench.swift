import ArgumentParser
import Foundation
import Gait
import SyntheticReceivers

/// Steps and cadence per placement over draws of synthesized gaits whose every step is known.
struct GaitBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gait",
        abstract: "Steps and cadence from an accelerometer per placement, against synthesized gaits' truth."
    )

    @Option(help: "Draws per gait and placement.")
    var seeds: UInt64 = 50

    func run() throws {
        StandardOutput.line("step count error, % of the true steps (standing: steps), mean / rms over \(seeds) draws")
        StandardOutput.line(
            "gait".padding(toLength: 26, withPad: " ", startingAt: 0)
                + ["true steps", "wrist", "hip", "ankle"].map { rightAligned($0, 16) }.joined()
        )
        for (name, bouts) in SyntheticGait.gaits {
            var cells: [String] = []
            var truth = 0
            for placement in [Placement.wrist, .hip, .ankle] {
                var errors: [Double] = []
                for seed in 1...seeds {
                    let recording = SyntheticGait.recording(bouts, placement: placement, seed: seed)
                    var detector = StepDetector(placement: placement)
                    for sample in recording.samples { detector.add(sample) }
                    truth = recording.steps.count
                    errors.append(
                        truth > 0 ? Double(detector.steps - truth) / Double(truth) * 100 : Double(detector.steps)
                    )
                }
                cells.append(ElevationBench.meanRMS(errors))
            }
            StandardOutput.line(
                name.padding(toLength: 26, withPad: " ", startingAt: 0) + rightAligned("\(truth)", 16)
                    + cells.map { rightAligned($0, 16) }.joined()
            )
        }
    }
}
