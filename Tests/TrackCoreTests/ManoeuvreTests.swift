import Foundation
import Harness
import SyntheticReceivers
import Testing

@testable import TrackCore

/// Corners taken at speed: a position and its Doppler that both fail the outlier test
/// in one epoch are a manoeuvre, not two bad measurements.
@Suite struct ManoeuvreTests {
    /// A cyclist through city blocks: 100 m straights joined by right-angle corners of 6 m radius,
    /// turning left and right in turn, at 7 m/s.
    static func cityBlocks(atDistance s: Double) -> (east: Double, north: Double) {
        let straight = 100.0
        let radius = 6.0
        let arc = Double.pi / 2 * radius
        var east = 0.0
        var north = 0.0
        var heading = 0.0  // radians from east, counter-clockwise
        var left = s
        var turn = 1.0
        while true {
            let run = min(left, straight)
            east += run * cos(heading)
            north += run * sin(heading)
            left -= run
            if left <= 0 { return (east, north) }
            let swept = min(left, arc) / radius
            // The centre of the turn lies `radius` to the turning side.
            let centreEast = east - turn * radius * sin(heading)
            let centreNorth = north + turn * radius * cos(heading)
            let end = heading + turn * swept
            east = centreEast + turn * radius * sin(end)
            north = centreNorth - turn * radius * cos(end)
            heading = end
            left -= swept * radius
            if left <= 0 { return (east, north) }
            turn = -turn
        }
    }

    /// With the prediction widened at each corner, and each position judged against the prediction
    /// that has taken the corner's Doppler in, the corners' positions are taken and the track
    /// follows them: 0-1 positions thrown out and the track 1.4-1.7 m off the path (rms). Without
    /// the widening the filter carries straight on into the corners and throws 2-6 of their
    /// positions out, the track 1.7-2.5 m off. The distance integrates the Doppler's speed either
    /// way and comes within 0.1 % of the path's length.
    @Test func cornersAtSpeedAreFollowedNotCutShort() {
        var without = ActivityProfile.cycling
        without.manoeuvreGate = .infinity
        for seed: UInt64 in [3, 4, 5] {
            var gen = Synthetic(noise: 1.5, dopplerNoise: 0.1, eph: 4, rng: TestRandom(seed: seed))
            let (fixes, truth) = gen.fixes(duration: 300) { t in Self.cityBlocks(atDistance: 7 * t) }
            let widened = Self.corners(fixes, profile: .cycling)
            let straightOn = Self.corners(fixes, profile: without)
            #expect(abs(widened.distance - truth) / truth < 0.001, "seed \(seed): \(widened.distance) m of \(truth) m")
            #expect(
                widened.outliers < straightOn.outliers,
                "seed \(seed): \(widened.outliers), \(straightOn.outliers) without"
            )
            #expect(
                widened.offPath < straightOn.offPath,
                "seed \(seed): the track \(widened.offPath) m off the path (rms), \(straightOn.offPath) m without"
            )
        }
    }

    /// The distance, the positions thrown out as outliers and how far the filtered track strays
    /// from the city blocks (rms over every fix).
    static func corners(_ fixes: [Fix], profile: ActivityProfile) -> (distance: Double, outliers: Int, offPath: Double)
    {
        let frame = LocalFrame(origin: Synthetic().origin)
        let start = fixes[0].time!
        var squares = 0.0
        var count = 0.0
        let session = replayed(fixes, activity: .cycling, profile: profile) { fix, _, session in
            guard let position = session.trackPoints.last?.position else { return }
            let truth = Self.cityBlocks(atDistance: 7 * fix.time!.since(start))
            let off = frame.project(position).distance(to: LocalPoint(east: truth.east, north: truth.north))
            squares += off * off
            count += 1
        }
        return (session.distance, session.rejected[.outlier] ?? 0, (squares / count).squareRoot())
    }

    /// A burst of multipath on a straight (15 m aside for 4 s) does not agree with the Doppler, so it is not taken
    /// for a manoeuvre: the same distance with the widening as without it.
    @Test func aMultipathBurstIsNotAManoeuvre() {
        var without = ActivityProfile.cycling
        without.manoeuvreGate = .infinity
        var gen = Synthetic(noise: 1.5, dopplerNoise: 0.1, eph: 4)
        var (fixes, _) = gen.fixes(duration: 120) { t in (7 * t, 0) }
        for index in 60..<64 {
            fixes[index].position = fixes[index].position.map {
                GeoPoint(latitude: $0.latitude + 0.000135, longitude: $0.longitude)
            }
        }
        let widened = replayed(fixes, activity: .cycling, profile: .cycling).distance
        #expect(widened == replayed(fixes, activity: .cycling, profile: without).distance)
    }

    @Test func widenedPredictionBringsTheDopplerToTheGate() {
        let origin = GeoPoint(latitude: 48.137, longitude: 11.575)
        var filter = MotionFilter(
            position: origin,
            time: GPSTime(seconds: 0),
            noise: .init(east: 2, north: 2, velocity: 0.1),
            velocity: LocalPoint(east: 7, north: 0),
            processNoise: 2
        )
        filter.predict(to: GPSTime(seconds: 1))
        let turned = LocalPoint(east: 0, north: 7)
        #expect(filter.velocityMahalanobis(turned, sigma: 0.1) > 13.8)
        filter.widen(towards: turned, sigma: 0.1, gate: 9.2, dt: 1)
        #expect(abs(filter.velocityMahalanobis(turned, sigma: 0.1) - 9.2) < 0.01)
        // Already close enough: nothing changes.
        let before = filter.east.vv
        filter.widen(towards: LocalPoint(east: 7, north: 0.5), sigma: 0.1, gate: 9.2, dt: 1)
        #expect(filter.east.vv == before)
    }
}
