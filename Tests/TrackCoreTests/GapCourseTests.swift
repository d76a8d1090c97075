import Foundation
import Testing

@testable import TrackCore

/// How much longer than its chord a path across a gap can have been, by the directions the wearer
/// left and arrived in.
@Suite struct GapCourseTests {
    static func heading(_ degrees: Double) -> LocalPoint {
        LocalPoint(east: sin(degrees * Double.pi / 180), north: cos(degrees * Double.pi / 180))
    }

    static let north = LocalPoint(east: 0, north: 150)

    @Test func aStraightRoadIsItsChord() {
        #expect(
            GapCourse.detourFactor(chord: Self.north, entry: Self.heading(0), exit: Self.heading(0), limit: 1.5) == 1
        )
        // The courses' noise (3 degrees) costs next to nothing.
        let noisy = GapCourse.detourFactor(
            chord: Self.north,
            entry: Self.heading(3),
            exit: Self.heading(-2),
            limit: 1.5
        )
        #expect(noisy > 1 && noisy < 1.001, "\(noisy)")
    }

    @Test func aRightAngleTakenInTheGapIsTheTwoLegs() {
        // Left heading east, arrived heading north: the chord runs north-east.
        let chord = LocalPoint(east: 100, north: 100)
        let factor = GapCourse.detourFactor(chord: chord, entry: Self.heading(90), exit: Self.heading(0), limit: 1.5)
        #expect(abs(factor - 2.0.squareRoot()) < 1e-9, "\(factor)")
        // The two legs' own lengths, 100 m each, over the chord's 141 m.
        #expect(abs(factor * chord.length - 200) < 1e-6)
    }

    @Test func unknownDirectionsAndReversalsAreBoundOnlyByTheLimit() {
        #expect(GapCourse.detourFactor(chord: Self.north, entry: nil, exit: Self.heading(0), limit: 1.5) == 1.5)
        #expect(GapCourse.detourFactor(chord: Self.north, entry: Self.heading(0), exit: nil, limit: 1.5) == 1.5)
        // Out along the chord's direction and back against it: a loop or a turnaround.
        #expect(
            GapCourse.detourFactor(chord: Self.north, entry: Self.heading(100), exit: Self.heading(-100), limit: 1.5)
                == 1.5
        )
        #expect(
            GapCourse.detourFactor(
                chord: LocalPoint(east: 0, north: 0),
                entry: Self.heading(0),
                exit: Self.heading(0),
                limit: 1.5
            ) == 1.5
        )
    }

    @Test func itGrowsAsTheDirectionsTurnAwayAndStopsAtTheLimit() {
        var last = 1.0
        for angle in stride(from: 5.0, through: 80, by: 5) {
            let factor = GapCourse.detourFactor(
                chord: Self.north,
                entry: Self.heading(angle),
                exit: Self.heading(-angle),
                limit: 10
            )
            #expect(factor > last)
            // A symmetric arc's two legs: 1 / cos of either angle.
            #expect(abs(factor - 1 / cos(angle * Double.pi / 180)) < 1e-9)
            last = factor
        }
        #expect(
            GapCourse.detourFactor(chord: Self.north, entry: Self.heading(80), exit: Self.heading(-80), limit: 1.5)
                == 1.5
        )
    }
}
