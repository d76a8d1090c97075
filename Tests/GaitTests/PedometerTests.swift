import Gait
import SyntheticReceivers
import Testing

/// The pedometer's readings, once a second of samples: the steps the detector counted, the
/// metres they cover at the prior step length, the speed, and standing still.
@Suite struct PedometerTests {
    @Test func aReadingASecondWithTheDetectorsStepsAndThePriorsMetres() throws {
        let bouts = SyntheticGait.gaits.first { $0.name == "run, steady" }!.bouts
        let recording = SyntheticGait.recording(bouts, placement: .hip, seed: 3)
        var pedometer = Pedometer(placement: .hip)
        var readings: [Pedometer.Reading] = []
        for sample in recording.samples { if let reading = pedometer.add(sample) { readings.append(reading) } }
        let duration = recording.samples.last!.time - recording.samples.first!.time
        #expect(abs(Double(readings.count) - duration) <= 1, "one a second: \(readings.count) in \(duration) s")
        #expect(zip(readings, readings.dropFirst()).allSatisfy { $0.steps <= $1.steps && $0.metres <= $1.metres })
        let last = try #require(readings.last)
        // The last second's steps, after the last reading, are the detector's alone.
        #expect(last.steps <= pedometer.detector.steps && pedometer.detector.steps - last.steps <= 4)
        #expect(abs(Double(last.steps - recording.steps.count)) <= 0.02 * Double(recording.steps.count) + 2)
        // Running at 172 a minute: about 1.23 m a step by the prior, 3.5 m/s.
        let cadence = try #require(last.cadence)
        #expect(abs(cadence - 172) < 4)
        #expect(abs(last.metres - Double(last.steps) * StepLength.prior(cadence: 172)) < 0.02 * last.metres)
        #expect(abs(last.speed - cadence / 60 * StepLength.prior(cadence: cadence)) < 1e-9)
        #expect(!last.still)
        // The standing start: still, no speed.
        #expect(readings.prefix(3).allSatisfy { $0.speed == 0 && $0.steps == 0 })
    }

    @Test func standingReadsStillWithNoSpeed() throws {
        let bouts = SyntheticGait.gaits.first { $0.name == "standing, fidgeting" }!.bouts
        let recording = SyntheticGait.recording(bouts, placement: .wrist, seed: 2)
        var pedometer = Pedometer(placement: .wrist)
        var last: Pedometer.Reading?
        for sample in recording.samples { last = pedometer.add(sample) ?? last }
        let reading = try #require(last)
        #expect(reading.still && reading.steps == 0 && reading.speed == 0 && reading.metres == 0)
    }

    @Test func thePriorStepLengthGrowsWithCadenceWithinItsBounds() {
        #expect(StepLength.prior(cadence: 80) == 0.55)
        #expect(abs(StepLength.prior(cadence: 170) - 1.2) < 1e-12)
        let cadences = stride(from: 0.0, through: 400, by: 5)
        let lengths = cadences.map(StepLength.prior(cadence:))
        #expect(zip(lengths, lengths.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(lengths.allSatisfy { (StepLength.shortest...StepLength.longest).contains($0) })
    }

    @Test func aClockThatGoesBackStartsTheIntervalAgain() {
        var pedometer = Pedometer(placement: .hip)
        #expect(pedometer.add(AccelerationSample(time: 100, x: 0, y: 0, z: 9.81)) == nil)
        #expect(pedometer.add(AccelerationSample(time: 50, x: 0, y: 0, z: 9.81)) == nil)
        #expect(pedometer.add(AccelerationSample(time: 50.5, x: 0, y: 0, z: 9.81)) == nil)
        #expect(pedometer.add(AccelerationSample(time: 51.0, x: 0, y: 0, z: 9.81)) != nil)
    }
}
