import Foundation
import Harness
import SyntheticReceivers
import TrackCore

/// Builds fix sequences whose true distance is known by construction.
struct Synthetic {
    var origin = GeoPoint(latitude: 48.137, longitude: 11.575)
    var start = GPSTime(seconds: 1_750_000_000)
    var rate = 1.0
    var noise = 0.0
    var dopplerNoise = 0.0
    var eph = 5.0
    var rng = TestRandom(seed: 7)

    /// A path as local east/north metres over time; returns the fixes and the true path length.
    ///
    /// The length is the path's own, summed over steps of a hundredth of a fix interval: the
    /// chords from fix to fix would cut every corner (a 6 m radius taken at 7 m/s is 6 % longer
    /// than its one-second chords).
    mutating func fixes(
        duration: Double,
        path: (Double) -> (east: Double, north: Double)
    ) -> (fixes: [Fix], truth: Double) {
        let frame = LocalFrame(origin: origin)
        let count = Int(duration * rate)
        var fixes: [Fix] = []
        var truth = 0.0
        let h = 0.01
        for i in 0...count {
            let t = Double(i) / rate
            let p = path(t)
            if i > 0 {
                var previous = path(Double(i - 1) / rate)
                for step in 1...100 {
                    let q = path((Double(i - 1) + Double(step) / 100) / rate)
                    let de = q.east - previous.east
                    let dn = q.north - previous.north
                    truth += (de * de + dn * dn).squareRoot()
                    previous = q
                }
            }
            let ahead = path(t + h)
            let ve = (ahead.east - p.east) / h
            let vn = (ahead.north - p.north) / h
            let speed = (ve * ve + vn * vn).squareRoot()
            let measured = frame.unproject(
                LocalPoint(east: p.east + rng.gaussian() * noise, north: p.north + rng.gaussian() * noise)
            )
            var track: Double? = atan2(ve, vn) * 180 / Double.pi
            if track! < 0 { track! += 360 }
            if speed < 0.2 { track = nil }
            fixes.append(
                Fix(
                    mode: 3,
                    time: start.adding(t),
                    position: measured,
                    errorEast: eph / 1.4,
                    errorNorth: eph / 1.4,
                    horizontalError: eph,
                    speed: max(0, speed + rng.gaussian() * dopplerNoise),
                    track: track,
                    speedError: 0.4
                )
            )
        }
        return (fixes, truth)
    }
}

/// Deterministic randomness so every test run sees the same noise.
typealias TestRandom = SplitMix

/// A 400 m running track, lane 1: two 84.39 m straights and two semicircles of radius 36.8 m.
enum RunningTrack {
    static let straight = 84.39
    static let radius = 36.8
    static var lap: Double { 2 * straight + 2 * Double.pi * radius }

    static func position(atDistance s: Double) -> (east: Double, north: Double) {
        var d = s.truncatingRemainder(dividingBy: lap)
        if d < straight { return (d, 0) }
        d -= straight
        let arc = Double.pi * radius
        if d < arc {
            let a = d / radius
            return (straight + radius * sin(a), radius - radius * cos(a))
        }
        d -= arc
        if d < straight { return (straight - d, 2 * radius) }
        d -= straight
        let a = d / radius
        return (-radius * sin(a), radius + radius * cos(a))
    }
}

func run(_ fixes: [Fix], activity: Activity = .running) -> TrackSession {
    replayed(fixes, activity: activity)
}
