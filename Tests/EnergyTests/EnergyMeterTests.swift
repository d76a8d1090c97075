import Testing

@testable import Energy

@Suite struct EnergyMeterTests {
    private let wearer = try! Carriage.checked(bodyMass: 75, load: 15).get()

    @Test func anHourAtOneSpeedIsThatHoursPower() {
        var meter = EnergyMeter(carriage: wearer, activity: .walking)
        for _ in 0..<3600 { meter.add(seconds: 1, metres: 1.4, grade: 0.02) }
        let watts = EnergyModel.lcda.power(speed: 1.4, grade: 0.02, carriage: wearer)
        #expect(abs(meter.joules - watts * 3600) < 1e-6 * watts * 3600)
        #expect(abs(meter.kilocalories - meter.joules / 4184) < 1e-9)
        #expect(meter.mainModel == .lcda)
    }

    @Test func pausedTimeAndNonsenseCostNothing() {
        var meter = EnergyMeter(carriage: wearer, activity: .running)
        meter.add(seconds: 0, metres: 10, grade: nil)
        meter.add(seconds: -3, metres: 10, grade: nil)
        meter.add(seconds: .nan, metres: 10, grade: nil)
        meter.add(seconds: 1, metres: .infinity, grade: nil)
        #expect(meter.joules == 0)
        #expect(meter.mainModel == nil)
    }

    @Test func aRideHasNoModel() {
        var meter = EnergyMeter(carriage: wearer, activity: .cycling)
        meter.add(seconds: 60, metres: 400, grade: 0)
        #expect(!meter.applies)
        #expect(meter.joules == 0)
    }

    @Test func theGaitPicksTheModel() {
        var walk = EnergyMeter(carriage: wearer, activity: .walking, choice: ModelChoice(walking: .pandolf))
        walk.add(seconds: 10, metres: 14, grade: 0)
        walk.add(seconds: 1, metres: 2.5, grade: 0)
        #expect(walk.joulesByModel.keys.sorted { $0.rawValue < $1.rawValue } == [.acsmRunning, .pandolf])
        #expect(walk.mainModel == .pandolf)

        var run = EnergyMeter(carriage: wearer, activity: .running)
        run.add(seconds: 60, metres: 180, grade: 0)
        run.add(seconds: 30, metres: 30, grade: 0)
        #expect(run.mainModel == .acsmRunning)
        #expect(run.joulesByModel[.lcda] != nil)
    }

    @Test func aGradeBeyondTheFittedRangeIsHeldAtIt() {
        var steep = EnergyMeter(carriage: wearer, activity: .walking)
        var limit = EnergyMeter(carriage: wearer, activity: .walking)
        steep.add(seconds: 1, metres: 1, grade: 0.9)
        limit.add(seconds: 1, metres: 1, grade: EnergyMeter.gradeLimit)
        #expect(steep.joules == limit.joules)
    }

    @Test func aCarriageOutsideItsRangeIsRefusedWithItsReason() {
        #expect(Carriage.checked(bodyMass: 7.5).failureMessage == "body mass 7.5 kg is outside 25-250 kg")
        #expect(Carriage.checked(bodyMass: 75, load: -1).failureMessage == "load -1.0 kg is outside 0-120 kg")
        #expect(Carriage.checked(bodyMass: .nan).failureMessage != nil)
        #expect(Carriage.checked(bodyMass: 75, load: 20).failureMessage == nil)
    }
}

extension Result where Failure == CarriageError {
    fileprivate var failureMessage: String? {
        if case .failure(let error) = self { return error.message }
        return nil
    }
}
