import Foundation
import Testing

@testable import Elevation

@Suite struct ClimbCounterTests {
    @Test func noiseBelowTheThresholdNeverCounts() {
        var counter = ClimbCounter(threshold: 3)
        for i in 0..<500 {
            let x = Double(i)
            let wobble: Double = 0.7 * sin(x * 0.7) + 0.7 * sin(x * 0.13)
            counter.add(100 + wobble)
        }
        #expect(counter.gain == 0)
        #expect(counter.loss == 0)
    }

    @Test func aWholeClimbCountsNotOnlyWhatPassedTheThreshold() {
        var counter = ClimbCounter(threshold: 5)
        for h in stride(from: 100.0, through: 150, by: 0.5) { counter.add(h) }
        for h in stride(from: 150.0, through: 120, by: -0.5) { counter.add(h) }
        #expect(abs(counter.gain - 50) < 1e-9)
        #expect(abs(counter.loss - 30) < 1e-9)
    }

    @Test func aDipShorterThanTheThresholdIsNoDescent() {
        var counter = ClimbCounter(threshold: 5)
        for h in [100.0, 110, 106, 110, 120] { counter.add(h) }
        #expect(counter.gain == 20)
        #expect(counter.loss == 0)
    }

    @Test func aShiftIsNeverCounted() {
        var counter = ClimbCounter(threshold: 3)
        counter.add(100)
        counter.add(110)
        counter.shift(by: -40)
        counter.add(70)
        counter.add(75)
        #expect(counter.gain == 15)
        #expect(counter.loss == 0)
    }
}
