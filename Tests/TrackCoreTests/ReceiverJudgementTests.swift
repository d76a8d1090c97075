import Foundation
import SyntheticReceivers
import Testing

@testable import TrackCore

/// The parts that judge a receiver's own numbers, one at a time.
@Suite struct ReceiverJudgementTests {
    private let start = GPSTime(seconds: 1_750_000_000)

    private func fix(_ i: Int, eph: Double?, epx: Double?, eps: Double? = nil) -> Fix {
        Fix(
            mode: 3,
            time: start.adding(Double(i)),
            position: GeoPoint(latitude: 48, longitude: 11),
            errorEast: epx,
            errorNorth: epx,
            horizontalError: eph,
            speed: 0,
            speedError: eps
        )
    }

    @Test func aFieldRepeatingForTenFixesIsAPlaceholderUntilItChanges() {
        var watch = FieldWatch()
        let limit = 10
        for i in 0..<limit { #expect(watch.observe(20, at: start.adding(Double(i)).seconds, limit: limit) == 20) }
        #expect(watch.observe(20, at: start.adding(10).seconds, limit: limit) == nil)
        // A duplicated epoch is not another repeat; a new value is information again.
        var duplicated = FieldWatch()
        for i in 0..<limit { _ = duplicated.observe(20, at: start.adding(Double(i)).seconds, limit: limit) }
        #expect(duplicated.observe(20, at: start.adding(9).seconds, limit: limit) == 20)
        #expect(watch.observe(31, at: start.adding(11).seconds, limit: limit) == 31)
        #expect(watch.observe(.nan, at: start.adding(12).seconds, limit: limit) == nil)
    }

    @Test func axisErrorsThatContradictEphAreDroppedWithTheEpsDerivedFromThem() {
        var judge = ErrorFieldJudge(profile: .walking)
        // SiRF-II: epx/epy 287 m against an eph of 30 m; eps is twice epx.
        let first = judge.judge(fix(0, eph: 30, epx: 287, eps: 574))
        #expect(first.east == nil && first.north == nil && first.speed == nil)
        #expect(first.horizontal == 30)
        // An epoch without eph keeps the verdict: epx/epy alone would have been gated at 406 m.
        let second = judge.judge(fix(1, eph: nil, epx: 287, eps: 574))
        #expect(second.east == nil && second.gating == nil)
        #expect(judge.everIgnored == [.epxEpy, .eps])

        // Fields that agree (hypot(epx, epy) about 1.1 eph) are believed.
        var honest = ErrorFieldJudge(profile: .walking)
        let agreeing = honest.judge(fix(0, eph: 20, epx: 16, eps: 0.8))
        #expect(agreeing.east == 16 && agreeing.horizontal == 20 && agreeing.speed == 0.8)
        #expect(honest.everIgnored.isEmpty)
    }

    @Test func noiseScaleLearnsARealNoiseSmallerOrLargerThanReported() {
        var rng = TestRandom(seed: 1)
        // Reported 1-sigma 50 m (2500 m^2), real 5 m: the factor falls towards 0.1.
        var over = NoiseScale(window: 10, range: 0.02...10, clip: 13.8)
        var under = NoiseScale(window: 10, range: 0.02...10, clip: 13.8)
        func innovation(_ sigma: Double) -> MotionFilter.Innovation {
            .init(east: sigma * rng.gaussian(), north: sigma * rng.gaussian(), eastVariance: 1, northVariance: 1)
        }
        for _ in 0..<300 {
            let big = LocalPoint(east: 2500, north: 2500)
            over.observe(
                innovation(5),
                reported: big,
                used: LocalPoint(east: 2500 * over.squared, north: 2500 * over.squared),
                dt: 1
            )
            // Reported 4 m, real 20 m: the factor climbs towards 5.
            let small = LocalPoint(east: 16, north: 16)
            under.observe(
                innovation(20),
                reported: small,
                used: LocalPoint(east: 16 * under.squared, north: 16 * under.squared),
                dt: 1
            )
        }
        #expect(over.factor > 0.05 && over.factor < 0.16, "\(over.factor)")
        #expect(under.factor > 3.5 && under.factor < 6.5, "\(under.factor)")
    }

    @Test func aSteadyDopplerIsCoherentAndARandomOneIsNot() {
        var rng = TestRandom(seed: 2)
        var walk = DopplerCoherence()
        var noise = DopplerCoherence()
        for i in 0..<30 {
            let t = start.adding(Double(i))
            let heading = 0.3 + 0.05 * rng.gaussian()
            walk.observe(LocalPoint(east: 1.2 * sin(heading), north: 1.2 * cos(heading)), speed: 1.2, at: t, window: 5)
            let random = 2 * Double.pi * rng.uniform()
            let speed = 0.5 + 1.5 * rng.uniform()
            noise.observe(
                LocalPoint(east: speed * sin(random), north: speed * cos(random)),
                speed: speed,
                at: t,
                window: 5
            )
        }
        let end = start.adding(29)
        #expect((walk.coherence(at: end, minSpeed: 0.4, window: 5) ?? 0) > 0.95)
        #expect((noise.coherence(at: end, minSpeed: 0.4, window: 5) ?? 1) < 0.6)
        // Too slow to have a direction, or gone quiet: no judgement.
        #expect(walk.coherence(at: end, minSpeed: 5, window: 5) == nil)
        #expect(walk.coherence(at: end.adding(30), minSpeed: 0.4, window: 5) == nil)
    }

    @Test func theJudgementIsReported() {
        let (fixes, _) = MisreportingReceiver.sirfWalk()
        let judgement = run(fixes, activity: .walking).receiverJudgement
        #expect(judgement.ignoredFieldNames == ["epx/epy", "eps"])
        #expect(judgement.positionNoiseScale < 1)
    }
}
