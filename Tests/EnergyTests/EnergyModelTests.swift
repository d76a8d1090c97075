import Glibc
import Testing

@testable import Energy

/// The equations against the examples their sources and the literature on them work through.
@Suite struct EnergyModelTests {
    private static let poundsPerKilogram = 2.20462
    private static let metresPerSecondPerMile = 0.44704

    private func carriage(_ body: Double, _ load: Double = 0) throws -> Carriage {
        try Carriage.checked(bodyMass: body, load: load).get()
    }

    private func kilocaloriesPerHour(_ watts: Double) -> Double { watts * 3600 / EnergyModel.joulesPerKilocalorie }

    /// Pandolf's equation, worked through for a 180 lb rucker with a 30 lb pack at 3.5 mph on the
    /// level: "roughly 410 calories per hour" (the equation's explainers quote it to 10 kcal/h).
    @Test func pandolfGivesTheWorkedRuckExample() throws {
        let rucker = try carriage(180 / Self.poundsPerKilogram, 30 / Self.poundsPerKilogram)
        let watts = EnergyModel.pandolf.power(speed: 3.5 * Self.metresPerSecondPerMile, grade: 0, carriage: rucker)
        #expect(abs(kilocaloriesPerHour(watts) - 410) < 5)
    }

    /// ACSM's running equation, worked through in its guidelines' teaching material: jogging on the
    /// level at 122.5 m/min is 28.0 mL/kg/min (8 METs), which for 60 kg is 8.4 kcal/min; and a
    /// 150 lb runner at 5 mph spends 548 kcal/h above rest (the treadmill makers' quote of ACSM).
    @Test func acsmRunningGivesItsWorkedExamples() throws {
        let jogger = try carriage(60)
        let watts = EnergyModel.acsmRunning.power(speed: 122.5 / 60, grade: 0, carriage: jogger)
        #expect(abs(watts * 60 / EnergyModel.joulesPerKilocalorie - 8.4) < 0.005)

        let runner = try carriage(150 / Self.poundsPerKilogram)
        let gross = EnergyModel.acsmRunning.power(speed: 5 * Self.metresPerSecondPerMile, grade: 0, carriage: runner)
        let resting = EnergyModel.acsmRunning.power(speed: 0, grade: 0, carriage: runner)
        #expect(abs(kilocaloriesPerHour(gross - resting) - 548) < 1)
    }

    /// ACSM's grade term: 0.9 mL/kg/min per m/min and unit grade, uphill only.
    @Test func acsmRunningClimbsButDoesNotCreditDescents() throws {
        let runner = try carriage(70)
        let level = EnergyModel.acsmRunning.power(speed: 3, grade: 0, carriage: runner)
        let up = EnergyModel.acsmRunning.power(speed: 3, grade: 0.05, carriage: runner)
        let down = EnergyModel.acsmRunning.power(speed: 3, grade: -0.05, carriage: runner)
        // 0.9 × 180 m/min × 0.05 = 8.1 mL/kg/min more.
        let extraOxygen = (up - level) * 60 / EnergyModel.joulesPerKilocalorie / 5 * 1000 / 70
        #expect(abs(extraOxygen - 8.1) < 1e-9)
        #expect(down == level)
    }

    /// Unloaded on the level, the LCDA backpacking equation (with the standing constant of the
    /// 2019 equation) and the 2019 standing and walking equation agree within the standard
    /// deviation of the backpacking equation's errors (0.63 W/kg) over its speeds.
    @Test func lcdaUnloadedAgreesWithTheStandingAndWalkingEquation() throws {
        let walker = try carriage(80)
        for speed in stride(from: 0.0, through: 1.97, by: 0.01) {
            let backpacking = EnergyModel.lcda.power(speed: speed, grade: 0, carriage: walker) / 80
            let walking = 1.44 + 1.94 * pow(speed, 0.43) + 0.24 * pow(speed, 4)
            #expect(abs(backpacking - walking) < 0.63, "at \(speed) m/s")
        }
        // Standing: both are 1.44 W/kg.
        #expect(abs(EnergyModel.lcda.power(speed: 0, grade: 0, carriage: walker) / 80 - 1.44) < 1e-12)
    }

    /// The backpacking paper's finding: Pandolf underestimates heavy rucksack loads (bias −0.44 W/kg
    /// over its trials, growing with the load); the LCDA equation costs them more.
    @Test func lcdaCostsHeavyLoadsAbovePandolf() throws {
        for fraction in [0.22, 0.44, 0.66] {
            let soldier = try carriage(80, 80 * fraction)
            let lcda = EnergyModel.lcda.power(speed: 1.34, grade: 0, carriage: soldier)
            let pandolf = EnergyModel.pandolf.power(speed: 1.34, grade: 0, carriage: soldier)
            #expect(lcda > pandolf, "load \(fraction)")
        }
    }

    /// Santee et al. measured the cheapest descent at −8 % (16 subjects at 1.34 m/s, −12 % to
    /// +12 %): both walking models cost least between −12 % and −7 % and more again below.
    @Test func descentsCostLeastNearMinusEightPercent() throws {
        let walker = try carriage(76, 9.1)
        for model in [EnergyModel.lcda, .pandolf] {
            let grades = stride(from: -0.20, through: 0.0, by: 0.005).map { $0 }
            let cheapest = try #require(
                grades.min {
                    model.power(speed: 1.34, grade: $0, carriage: walker)
                        < model.power(speed: 1.34, grade: $1, carriage: walker)
                }
            )
            #expect((-0.12 ... -0.07).contains(cheapest), "\(model): cheapest at \(cheapest)")
            #expect(
                model.power(speed: 1.34, grade: -0.08, carriage: walker)
                    < model.power(speed: 1.34, grade: 0, carriage: walker)
            )
        }
    }

    /// Santee's correction as Looney et al. print it, by hand: 80 kg, no load, 1.34 m/s, −8 %.
    @Test func pandolfSanteeByHand() throws {
        let walker = try carriage(80)
        // Pandolf: 1.5·80 + 80·(1.5·1.34² + 0.35·1.34·(−8)) = 35.3120 W.
        // Correction: −[(−8·80·1.34)/3.5 − 80·(−2)²/80 + 25·1.34²] = 204.1386 W.
        let watts = EnergyModel.pandolf.power(speed: 1.34, grade: -0.08, carriage: walker)
        #expect(abs(watts - (35.3120 + 204.1386)) < 0.001)
    }

    @Test func standingWithALoadCostsMoreThanWithout() throws {
        for model in [EnergyModel.lcda, .pandolf] {
            let bare = model.power(speed: 0, grade: 0, carriage: try carriage(80))
            let loaded = model.power(speed: 0, grade: 0, carriage: try carriage(80, 30))
            #expect(loaded > bare, "\(model)")
            // A slope under a standing wearer changes nothing.
            #expect(model.power(speed: 0, grade: -0.1, carriage: try carriage(80, 30)) == loaded)
        }
    }
}
