import ArgumentParser
import Energy
import Foundation
import SyntheticReceivers
import TrackCore

/// The equations at the conditions their sources work through, and the energy the core gives over
/// draws of hilly courses against the same model on the true way (its true speed and grade):
/// GPS alone and with a barometer, unloaded and with a ruck.
struct EnergyBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "energy",
        abstract: "Energy models at their worked examples; the core's energy against the true way over draws."
    )

    @Option(help: "Draws per course.")
    var seeds: UInt64 = 200

    @Option(help: "Body mass (kg).")
    var bodyMass = 80.0

    @Option(help: "Load (kg).")
    var load = 20.0

    func run() throws {
        let table: [(String, EnergyModel, Double, Double, Double, Double)] = [
            // name, model, body, load, speed, grade
            ("standing", .lcda, 80, 0, 0, 0),
            ("walk 1.34 m/s", .lcda, 80, 0, 1.34, 0),
            ("ruck 1.34, 25 %", .lcda, 80, 20, 1.34, 0),
            ("ruck 1.34, +10 %", .lcda, 80, 20, 1.34, 0.10),
            ("ruck 1.34, -8 %", .lcda, 80, 20, 1.34, -0.08),
            ("walk 1.34 m/s", .pandolf, 80, 0, 1.34, 0),
            ("ruck 1.34, 25 %", .pandolf, 80, 20, 1.34, 0),
            ("ruck 1.34, +10 %", .pandolf, 80, 20, 1.34, 0.10),
            ("ruck 1.34, -8 %", .pandolf, 80, 20, 1.34, -0.08),
            ("run 3.0 m/s", .acsmRunning, 70, 0, 3.0, 0),
            ("run 3.0, +5 %", .acsmRunning, 70, 0, 3.0, 0.05),
        ]
        StandardOutput.line("model            condition            body  load   W      W/kg   kcal/h")
        for (name, model, body, load, speed, grade) in table {
            let carriage = try Carriage.checked(bodyMass: body, load: load).get()
            let watts = model.power(speed: speed, grade: grade, carriage: carriage)
            StandardOutput.line(
                model.rawValue.padding(toLength: 17, withPad: " ", startingAt: 0)
                    + name.padding(toLength: 20, withPad: " ", startingAt: 0)
                    + String(
                        format: "%5.0f %5.0f %6.1f %6.2f %8.0f",
                        body,
                        load,
                        watts,
                        watts / body,
                        watts * 3.6 / 4.184
                    )
            )
        }
        let carriage = try Carriage.checked(bodyMass: bodyMass, load: load).get()
        StandardOutput.line("")
        StandardOutput.line(
            "the core's energy against the model on the true way, \(seeds) draws, \(Int(bodyMass)) kg + \(Int(load)) kg:"
                + " error % mean / rms (standing: the core's kcal)"
        )
        StandardOutput.line(
            "course".padding(toLength: 22, withPad: " ", startingAt: 0)
                + ["model", "true kcal", "GPS alone", "barometer"].map { rightAligned($0, 16) }.joined()
        )
        for course in ElevatedReceiver.courses {
            let walking = course.route.activity == .walking
            for model in walking ? [WalkingModel.lcda, .pandolf] : [.lcda] {
                var truth = 0.0
                var gps: [Double] = []
                var baro: [Double] = []
                let settings = EnergySettings(carriage: carriage, walking: model)
                let costed: EnergyModel = walking ? model.model : .acsmRunning
                for seed in 1...seeds {
                    let session = ElevatedReceiver.session(course.route.make(seed), profile: course.profile, seed: seed)
                    truth = session.trueEnergy(costed, carriage: carriage)
                    for (barometer, into) in [(false, 0), (true, 1)] {
                        let track = ElevatedReceiver.replayed(
                            session,
                            activity: course.route.activity,
                            barometer: barometer,
                            energy: settings
                        )
                        // Standing still, the truth costs nothing: the core's kcal (before the auto-pause).
                        let joules = track.energy?.joules ?? 0
                        let error = truth > 1 ? (joules / truth - 1) * 100 : joules / 4184
                        if into == 0 { gps.append(error) } else { baro.append(error) }
                    }
                }
                StandardOutput.line(
                    course.name.padding(toLength: 22, withPad: " ", startingAt: 0)
                        + rightAligned(costed.rawValue, 16)
                        + rightAligned(String(format: "%.0f", truth / 4184), 16)
                        + rightAligned(ElevationBench.meanRMS(gps), 16) + rightAligned(ElevationBench.meanRMS(baro), 16)
                )
            }
        }
    }
}
