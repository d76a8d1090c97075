import Testing

@testable import RaceCore

@Suite struct ProgressTrailTests {
    @Test func aMarathonIsKeptInFewMarksAndReadBackWithinASecond() throws {
        var trail = ProgressTrail()
        // 4 h at a steady 2.93 m/s with a minute's stand at 20 km, a sample a second.
        func distance(_ t: Double) -> Double { t < 6826 ? 2.93 * t : t < 6886 ? 2.93 * 6826 : 2.93 * (t - 60) }
        for second in 0...14_400 { trail.record(elapsed: Double(second), distance: distance(Double(second))) }
        #expect(trail.marks.count < 9000, "\(trail.marks.count)")
        #expect(abs(try #require(trail.elapsed(passing: 10_000)) - 10_000 / 2.93) < 1)
        // The stand's spot was left at its end.
        #expect(abs(try #require(trail.elapsed(passing: 2.93 * 6826)) - 6886) < 1)
        #expect(trail.elapsed(passing: 50_000) == nil)
    }

    @Test func outOfOrderOrFallingSamplesNeverMoveItBack() throws {
        var trail = ProgressTrail()
        trail.record(elapsed: 0, distance: 0)
        trail.record(elapsed: 10, distance: 30)
        trail.record(elapsed: 5, distance: 100)
        trail.record(elapsed: 11, distance: 20)
        trail.record(elapsed: 20, distance: 60)
        trail.record(elapsed: .nan, distance: 70)
        #expect(abs(try #require(trail.elapsed(passing: 45)) - 15) < 1e-9)
        #expect(trail.elapsed(passing: 60) == nil)
    }

    @Test func aVeryLongDayIsThinnedNotDropped() throws {
        var trail = ProgressTrail()
        // Thirty hours of walking, a sample a second: beyond the capacity every other mark goes.
        for second in 0...108_000 { trail.record(elapsed: Double(second), distance: 1.2 * Double(second)) }
        #expect(trail.marks.count <= 20_000)
        #expect(abs(try #require(trail.elapsed(passing: 100_000)) - 100_000 / 1.2) < 15)
    }
}
