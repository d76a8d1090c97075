import StrideCalibration
import Testing

/// A deterministic run: legs of a city block loop at chosen speeds, GPS with metres of noise that
/// does not accumulate (the core's smoothed distance), a footpod whose stride is off by `error(speed)`.
struct SyntheticRun {
    struct Leg {
        var metres: Double
        var heading: (east: Double, north: Double)
        var speed: Double
    }

    var legs: [Leg]
    var footpodError: (Double) -> Double
    var gpsUsable: (Double) -> Bool = { _ in true }
    private var seed: UInt64 = 0x9E37_79B9_7F4A_7C15

    init(legs: [Leg], footpodError: @escaping (Double) -> Double) {
        self.legs = legs
        self.footpodError = footpodError
    }

    /// A uniform number in -1...1 from a fixed sequence, so every run of the test is the same.
    mutating func noise() -> Double {
        seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Double(seed >> 11) / Double(1 << 53) * 2 - 1
    }

    mutating func epochs() -> [StrideCalibrator.Epoch] {
        var result: [StrideCalibrator.Epoch] = []
        var (east, north, truth, footpod, time) = (0.0, 0.0, 0.0, 0.0, 0.0)
        for leg in legs {
            var done = 0.0
            while done < leg.metres {
                let step = min(leg.speed, leg.metres - done)
                done += step
                truth += step
                east += leg.heading.east * step
                north += leg.heading.north * step
                footpod += step * (1 + footpodError(leg.speed))
                time += 1
                result.append(
                    .init(
                        time: time,
                        gpsUsable: gpsUsable(time),
                        east: east + 2 * noise(),
                        north: north + 2 * noise(),
                        gpsDistance: truth + noise(),
                        footpodDistance: footpod,
                        footpodSpeed: leg.speed * (1 + footpodError(leg.speed)) * (1 + 0.02 * noise())
                    )
                )
            }
        }
        return result
    }

    /// Blocks of 600 m by 300 m, each leg at the next of `speeds`.
    static func city(speeds: [Double], blocks: Int) -> [Leg] {
        let headings: [(Double, Double)] = [(1, 0), (0, 1), (-1, 0), (0, 1)]
        return (0..<(blocks * 4)).map { index in
            Leg(
                metres: index % 2 == 0 ? 600 : 300,
                heading: headings[index % 4],
                speed: speeds[index % speeds.count]
            )
        }
    }
}

@Suite struct StrideCalibratorTests {
    func learn(_ run: inout SyntheticRun) -> StrideCalibrator {
        var calibrator = StrideCalibrator()
        for epoch in run.epochs() { _ = calibrator.take(epoch) }
        _ = calibrator.finish()
        return calibrator
    }

    /// The case: a stride off by 7 % is learnt to within 1 %, and corrects the next run indoors.
    @Test func aStrideOffBySevenPercentIsLearntAndCorrectsTheNextRun() throws {
        var outdoor = SyntheticRun(legs: SyntheticRun.city(speeds: [3.0, 3.5], blocks: 3)) { _ in 0.07 }
        let calibrator = learn(&outdoor)
        let factor = try #require(calibrator.overall)
        #expect(abs(factor.factor * 1.07 - 1) < 0.01, "learnt \(factor.factor), truth \(1 / 1.07)")
        #expect(factor.standardError < 0.01)
        #expect(calibrator.stretches.count >= 8)
        // Indoors: the same footpod, 5 km on a treadmill, corrected by the factor for each speed.
        var indoor = CalibratedDistance()
        var footpod = 0.0
        indoor.take(footpodDistance: footpod, factor: 1)  // the footpod's first value: the baseline
        for second in 0..<1600 {
            let speed = second < 800 ? 3.0 : 3.5
            footpod += speed * 1.07
            indoor.take(footpodDistance: footpod, factor: try #require(calibrator.factor(forSpeed: speed)).factor)
        }
        let truth = 800 * 3.0 + 800 * 3.5
        #expect(abs(indoor.metres / truth - 1) < 0.01, "indoor \(indoor.metres) m, truth \(truth) m")
        #expect(abs(indoor.rawMetres / truth - 1.07) < 1e-9)
    }

    /// Corners are not learnt across: every stretch is one leg's straight, never around a block.
    @Test func stretchesAreStraight() {
        var run = SyntheticRun(legs: SyntheticRun.city(speeds: [3.2], blocks: 2)) { _ in 0.05 }
        let calibrator = learn(&run)
        #expect(!calibrator.stretches.isEmpty)
        for stretch in calibrator.stretches { #expect(stretch.gpsMetres <= 620, "a stretch of \(stretch.gpsMetres) m") }
    }

    /// Half a metre of GPS error along the way, ahead at one fix and behind at the next, makes a
    /// straight's chord up to a metre shorter than its path: no bend, and the straight is learnt
    /// whole. (Judged by the share alone, it broke every seven fixes and taught nothing.)
    @Test func noiseAtAStretchsEndsIsNotABend() throws {
        var calibrator = StrideCalibrator()
        for second in 0...80 {
            let along = 3.0 * Double(second) + (second.isMultiple(of: 2) ? 0.5 : -0.5)
            let epoch = StrideCalibrator.Epoch(
                time: Double(second),
                gpsUsable: true,
                east: along,
                north: 0,
                gpsDistance: 3.0 * Double(second),
                footpodDistance: 3.09 * Double(second),
                footpodSpeed: 3.09
            )
            #expect(calibrator.take(epoch) == nil, "a stretch ended at \(second) s")
        }
        let closed = calibrator.finish()
        let stretch = try #require(closed)
        #expect(stretch.start == 0 && stretch.end == 80 && stretch.gpsMetres == 240)
    }

    /// The allowance for noise does not let a corner through: 150 m east, then north, ends the
    /// stretch within a few metres of the corner.
    @Test func aCornerStillEndsAStretch() throws {
        var calibrator = StrideCalibrator()
        for second in 0...90 {
            let east = 3.0 * Double(min(second, 50))
            let north = 3.0 * Double(max(0, second - 50))
            _ = calibrator.take(
                StrideCalibrator.Epoch(
                    time: Double(second),
                    gpsUsable: true,
                    east: east,
                    north: north,
                    gpsDistance: east + north,
                    footpodDistance: 3.09 * Double(second),
                    footpodSpeed: 3.09
                )
            )
        }
        _ = calibrator.finish()
        let first = try #require(calibrator.stretches.first)
        #expect(first.start == 0 && first.gpsMetres >= 150 && first.gpsMetres <= 156, "\(first)")
        #expect(calibrator.stretches.allSatisfy { $0.start == 0 || $0.start >= 51 })
    }

    /// GPS the core judges unusable (a tunnel) ends a stretch and nothing in it is learnt.
    @Test func unusableGPSTeachesNothing() {
        var run = SyntheticRun(legs: SyntheticRun.city(speeds: [3.2], blocks: 1)) { _ in 0.05 }
        run.gpsUsable = { _ in false }
        #expect(learn(&run).stretches.isEmpty)
        var outage = SyntheticRun(legs: [.init(metres: 1200, heading: (1, 0), speed: 3)]) { _ in 0.05 }
        outage.gpsUsable = { time in !(150...250).contains(time) }
        let calibrator = learn(&outage)
        #expect(calibrator.stretches.count == 2)
        #expect(calibrator.stretches.allSatisfy { $0.end < 150 || $0.start > 250 })
    }

    /// A stride that lengthens with pace: the bands keep factors of their own.
    @Test func aStrideThatChangesWithPaceIsLearntPerBand() throws {
        var run = SyntheticRun(legs: SyntheticRun.city(speeds: [2.4, 4.4], blocks: 4)) { speed in
            speed < 3 ? 0.03 : 0.10
        }
        let calibrator = learn(&run)
        let slow = try #require(calibrator.factor(forSpeed: 2.4 * 1.03))
        let fast = try #require(calibrator.factor(forSpeed: 4.4 * 1.10))
        #expect(abs(slow.factor * 1.03 - 1) < 0.01, "slow band \(slow.factor)")
        #expect(abs(fast.factor * 1.10 - 1) < 0.01, "fast band \(fast.factor)")
        // A steady stride has one factor for every band.
        var steady = SyntheticRun(legs: SyntheticRun.city(speeds: [2.4, 4.4], blocks: 4)) { _ in 0.05 }
        let one = learn(&steady)
        #expect(one.factor(forSpeed: 2.4) == one.overall)
        #expect(one.factor(forSpeed: 4.6) == one.overall)
    }

    /// A footpod whose distance is wildly off (another runner's, a unit error) is not learnt from.
    @Test func anImplausibleRatioIsRefused() {
        var run = SyntheticRun(legs: SyntheticRun.city(speeds: [3.0], blocks: 1)) { _ in 0.6 }
        #expect(learn(&run).stretches.isEmpty)
    }

    /// Stopped or shuffling, the stretch ends; a footpod reset mid-stretch breaks it too.
    @Test func stopsAndResetsEndAStretch() {
        var calibrator = StrideCalibrator()
        var closed: [CalibrationStretch] = []
        for second in 0..<200 {
            let footpod = second == 100 ? 0.0 : Double(second) * 3.3
            let epoch = StrideCalibrator.Epoch(
                time: Double(second),
                gpsUsable: true,
                east: Double(second) * 3,
                north: 0,
                gpsDistance: Double(second) * 3,
                footpodDistance: footpod,
                footpodSpeed: 3.3
            )
            if let stretch = calibrator.take(epoch) { closed.append(stretch) }
        }
        #expect(closed.count == 1 && closed[0].end == 99)
    }

    @Test func aFixedDistanceOnTheTrack() throws {
        let factor = try #require(StrideCalibrator.fixedDistance(declared: 400, footpodMetres: 428))
        #expect(abs(factor.factor - 400.0 / 428) < 1e-12)
        #expect(factor.stretches == 1)
        #expect(StrideCalibrator.fixedDistance(declared: 400, footpodMetres: 0) == nil)
    }

    @Test func aFootpodResetIsNotANegativeStep() {
        var distance = CalibratedDistance()
        for value in [10.0, 20, 30, 0, 10, 20] { distance.take(footpodDistance: value, factor: 0.9) }
        #expect(distance.rawMetres == 40)
        #expect(abs(distance.metres - 36) < 1e-9)
    }
}

@Suite("Pace bands")
struct PaceBandTests {
    @Test func eachBandIsAskedForAtASpeedInsideIt() {
        let settings = CalibrationSettings()
        let speeds = (0...settings.bandEdges.count).map { settings.speed(inBand: $0) }
        #expect(zip(speeds, [2.5, 2.95, 3.65, 4.1]).allSatisfy { abs($0 - $1) < 1e-9 }, "\(speeds)")
        #expect(speeds.enumerated().allSatisfy { settings.band(of: $1) == $0 })
        var none = settings
        none.bandEdges = []
        #expect(none.speed(inBand: 0) == 0 && none.band(of: 0) == 0)
    }
}
