import Gait
import SyntheticReceivers
import Testing

/// Steps against synthesized recordings whose every step is known (`SyntheticGait`).
@Suite struct StepDetectorTests {
    static func gait(_ name: String) -> [SyntheticGait.Bout] {
        SyntheticGait.gaits.first { $0.name == name }!.bouts
    }

    private func detect(_ recording: SyntheticGait.Recording, _ placement: Placement) -> StepDetector {
        var detector = StepDetector(placement: placement)
        for sample in recording.samples { detector.add(sample) }
        return detector
    }

    @Test(arguments: Placement.allCases)
    func stepsAreCountedWithinTwoPercent(_ placement: Placement) {
        for name in ["walk, steady", "run, steady", "walk, lights and a jog", "intervals"] {
            for seed: UInt64 in 1...3 {
                let recording = SyntheticGait.recording(Self.gait(name), placement: placement, seed: seed)
                let counted = detect(recording, placement).steps
                let truth = recording.steps.count
                #expect(
                    abs(Double(counted - truth)) <= 0.02 * Double(truth) + 2,
                    "\(placement), \(name), seed \(seed): \(counted) of \(truth)"
                )
            }
        }
    }

    @Test(arguments: Placement.allCases)
    func theCadenceIsTheGaits(_ placement: Placement) throws {
        for (name, cadence) in [("walk, steady", 112.0), ("run, steady", 172.0)] {
            let recording = SyntheticGait.recording(Self.gait(name), placement: placement, seed: 4)
            let detector = detect(recording, placement)
            let measured = try #require(detector.cadence, "\(placement), \(name)")
            #expect(abs(measured - cadence) < 4, "\(placement), \(name): \(measured)")
        }
    }

    @Test(arguments: Placement.allCases)
    func standingCountsNothingAndIsStill(_ placement: Placement) {
        let recording = SyntheticGait.recording(Self.gait("standing, fidgeting"), placement: placement, seed: 5)
        let detector = detect(recording, placement)
        #expect(detector.steps == 0, "\(placement)")
        #expect(detector.cadence == nil)
        #expect(detector.isStill, "\(placement)")
    }

    /// A walk stops at a light: still within a few seconds, and the steps after it count again.
    @Test func aStopIsStillAndTheWalkAfterItCounts() {
        let bouts = [
            SyntheticGait.Bout(cadence: 110, seconds: 60, impact: 3),
            SyntheticGait.Bout(cadence: 0, seconds: 30, impact: 0),
            SyntheticGait.Bout(cadence: 110, seconds: 60, impact: 3),
        ]
        let recording = SyntheticGait.recording(bouts, placement: .hip, seed: 6)
        var detector = StepDetector(placement: .hip)
        var stillAt: Double?
        for sample in recording.samples {
            detector.add(sample)
            if stillAt == nil, sample.time > 60, detector.isStill { stillAt = sample.time }
            if sample.time < 59 { #expect(!detector.isStill || sample.time < 3) }
        }
        #expect((stillAt ?? 999) < 66, "still at \(stillAt ?? -1) s")
        #expect(abs(detector.steps - recording.steps.count) <= 4)
    }

    /// A bump (a jump off a kerb, the device knocked) is not a walk: fewer than the confirmation's
    /// peaks at a gait's rhythm count nothing.
    @Test func aFewJoltsAreNotSteps() {
        let bouts = [
            SyntheticGait.Bout(cadence: 0, seconds: 5, impact: 0),
            SyntheticGait.Bout(cadence: 100, seconds: 1.8, impact: 6),
            SyntheticGait.Bout(cadence: 0, seconds: 10, impact: 0),
        ]
        let recording = SyntheticGait.recording(bouts, placement: .hip, seed: 7)
        #expect(recording.steps.count == 3)
        #expect(detect(recording, .hip).steps == 0)
    }

    @Test func nonsenseSamplesAreIgnored() {
        var detector = StepDetector(placement: .wrist)
        detector.add(AccelerationSample(time: 1, x: .nan, y: 0, z: 9.8))
        detector.add(AccelerationSample(time: 1, x: 0, y: 0, z: 9.8))
        detector.add(AccelerationSample(time: 0.5, x: 0, y: 0, z: 50))
        detector.add(AccelerationSample(time: .infinity, x: 0, y: 0, z: 9.8))
        #expect(detector.steps == 0)
    }
}
