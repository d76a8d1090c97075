import Foundation
import Harness
import TrackCore

/// Courses of known shape and runs along them with known truth: for the course follower's tests and
/// its benchmark. Shapes are drawn in metres on a plane at `origin` and every 2 m a point.
public enum SyntheticCourse {
    public static let origin = GeoPoint(latitude: 48.2082, longitude: 16.3738)

    /// A named shape: its points in metres east and north of `origin`, and its turns where a cue
    /// belongs (distance along, positive degrees to the right), as drawn.
    public struct Shape: Sendable {
        public var name: String
        public var points: [LocalPoint]
        public var turns: [(distance: Double, degrees: Double)]

        public var positions: [GeoPoint] {
            let frame = LocalFrame(origin: SyntheticCourse.origin)
            return points.map(frame.unproject)
        }

        public var length: Double { zip(points, points.dropFirst()).reduce(0) { $0 + $1.0.distance(to: $1.1) } }
    }

    /// A circle of `radius` m, run anticlockwise from its southernmost point.
    public static func loop(radius: Double = 300) -> Shape {
        let count = Int(2 * Double.pi * radius / 2)
        let points = (0...count).map { k -> LocalPoint in
            let angle = 2 * Double.pi * Double(k) / Double(count) - Double.pi / 2
            return LocalPoint(east: radius * cos(angle), north: radius * sin(angle) + radius)
        }
        return Shape(name: "loop", points: points, turns: [])
    }

    /// `length` m east along a road and back the same way: one turn, a U-turn at the far end.
    public static func outAndBack(length: Double = 2500) -> Shape {
        let count = Int(length / 2)
        let out = (0...count).map { LocalPoint(east: Double($0) * length / Double(count), north: 0) }
        let back = out.reversed().dropFirst().map { LocalPoint(east: $0.east, north: 0) }
        return Shape(name: "out and back", points: out + back, turns: [(length, 180)])
    }

    /// A lemniscate of Bernoulli `width` m across: the course crosses itself at its middle, at 90°.
    public static func figureEight(width: Double = 800) -> Shape {
        let a = width / 2
        let count = 2000
        let points = (0...count).map { k -> LocalPoint in
            let t = 2 * Double.pi * Double(k) / Double(count)
            let d = 1 + sin(t) * sin(t)
            return LocalPoint(east: a * cos(t) / d, north: a * sin(t) * cos(t) / d)
        }
        return Shape(name: "figure eight", points: points, turns: [])
    }

    /// `laps` laps of a 400 m running track (two 84.39 m straights, two bends of 36.5 m radius),
    /// anticlockwise from the start of the home straight.
    public static func track(laps: Int = 10) -> Shape {
        let straight = 84.39
        let radius = 36.5
        var lap: [LocalPoint] = []
        for k in 0..<42 { lap.append(LocalPoint(east: straight * Double(k) / 42, north: 0)) }
        for k in 0..<57 {
            let angle = -Double.pi / 2 + Double.pi * Double(k) / 57
            lap.append(LocalPoint(east: straight + radius * cos(angle), north: radius + radius * sin(angle)))
        }
        for k in 0..<42 { lap.append(LocalPoint(east: straight - straight * Double(k) / 42, north: 2 * radius)) }
        for k in 0..<57 {
            let angle = Double.pi / 2 + Double.pi * Double(k) / 57
            lap.append(LocalPoint(east: radius * cos(angle), north: radius + radius * sin(angle)))
        }
        let points = (0..<laps).flatMap { _ in lap } + [lap[0]]
        return Shape(name: "track", points: points, turns: [])
    }

    /// Streets with corners: east 400 m, left (north) 300, right (east) 200, right (south) 500,
    /// right (west) 600.
    public static func streets() -> Shape {
        let corners = [
            LocalPoint(east: 0, north: 0), LocalPoint(east: 400, north: 0), LocalPoint(east: 400, north: 300),
            LocalPoint(east: 600, north: 300), LocalPoint(east: 600, north: -200), LocalPoint(east: 0, north: -200),
        ]
        var points: [LocalPoint] = []
        for (a, b) in zip(corners, corners.dropFirst()) {
            let count = Int(a.distance(to: b) / 2)
            for k in 0..<count {
                let t = Double(k) / Double(count)
                points.append(
                    LocalPoint(east: a.east + (b.east - a.east) * t, north: a.north + (b.north - a.north) * t)
                )
            }
        }
        points.append(corners.last!)
        return Shape(name: "streets", points: points, turns: [(400, -90), (700, 90), (900, 90), (1400, 90)])
    }

    /// A way off the course: at `at` m along, `out` m to the left of it (negative: to the right),
    /// then back to the course at `back` m along.
    public struct Detour: Sendable {
        public var at: Double
        public var out: Double
        public var back: Double

        public init(at: Double, out: Double, back: Double) {
            self.at = at
            self.out = out
            self.back = back
        }
    }

    /// One fix of a run: its time (s), the position a receiver gave (the truth with `noise` m of
    /// error on each axis), the true distance along the course (held while off it) and the true
    /// distance from it.
    public struct Fix: Sendable {
        public var time: Double
        public var position: GeoPoint
        public var along: Double
        public var away: Double
    }

    /// A run of the shape at `speed` m/s, a fix a second, with an optional detour.
    public static func run(
        _ shape: Shape,
        speed: Double = 3,
        noise: Double = 3,
        seed: UInt64 = 1,
        detour: Detour? = nil
    ) -> [Fix] {
        let frame = LocalFrame(origin: origin)
        let path = Path(shape.points)
        var random = SplitMix(seed: seed)
        var fixes: [Fix] = []
        var legs: [(from: LocalPoint, to: LocalPoint)] = []
        if let detour {
            let leave = path.point(at: detour.at)
            let heading = path.heading(at: detour.at)
            let outside = LocalPoint(
                east: leave.east - heading.north * detour.out,
                north: leave.north + heading.east * detour.out
            )
            legs = [(leave, outside), (outside, path.point(at: detour.back))]
        }
        var along = 0.0
        var time = 0.0
        var detourDone = detour == nil
        while along <= path.length {
            if !detourDone, let detour, along >= detour.at {
                detourDone = true
                for leg in legs {
                    let length = leg.from.distance(to: leg.to)
                    var covered = 0.0
                    while covered < length {
                        let t = covered / length
                        let truth = LocalPoint(
                            east: leg.from.east + (leg.to.east - leg.from.east) * t,
                            north: leg.from.north + (leg.to.north - leg.from.north) * t
                        )
                        let away = path.distance(from: truth)
                        fixes.append(fix(truth, time: time, along: detour.at, away: away, frame, noise, &random))
                        covered += speed
                        time += 1
                    }
                }
                along = detour.back
                continue
            }
            fixes.append(fix(path.point(at: along), time: time, along: along, away: 0, frame, noise, &random))
            along += speed
            time += 1
        }
        return fixes
    }

    private static func fix(
        _ truth: LocalPoint,
        time: Double,
        along: Double,
        away: Double,
        _ frame: LocalFrame,
        _ noise: Double,
        _ random: inout SplitMix
    ) -> Fix {
        let seen = LocalPoint(
            east: truth.east + noise * random.gaussian(),
            north: truth.north + noise * random.gaussian()
        )
        return Fix(time: time, position: frame.unproject(seen), along: along, away: away)
    }

    /// A polyline in metres: points at distances along it, headings, the distance of a point from it
    /// (brute force over its segments: the truth the follower is judged against).
    struct Path {
        let points: [LocalPoint]
        let distances: [Double]
        var length: Double { distances.last ?? 0 }

        init(_ points: [LocalPoint]) {
            self.points = points
            var distances = [0.0]
            for (a, b) in zip(points, points.dropFirst()) { distances.append(distances.last! + a.distance(to: b)) }
            self.distances = distances
        }

        func index(at distance: Double) -> Int {
            var low = 0
            var high = points.count - 2
            while low < high {
                let mid = (low + high + 1) / 2
                if distances[mid] <= distance { low = mid } else { high = mid - 1 }
            }
            return low
        }

        func point(at distance: Double) -> LocalPoint {
            let i = index(at: min(max(0, distance), length))
            let span = distances[i + 1] - distances[i]
            let t = span > 0 ? (min(max(0, distance), length) - distances[i]) / span : 0
            return LocalPoint(
                east: points[i].east + (points[i + 1].east - points[i].east) * t,
                north: points[i].north + (points[i + 1].north - points[i].north) * t
            )
        }

        /// The unit vector of the direction of travel at `distance`.
        func heading(at distance: Double) -> LocalPoint {
            let i = index(at: min(max(0, distance), length))
            let a = points[i]
            let b = points[i + 1]
            let d = a.distance(to: b)
            return LocalPoint(east: (b.east - a.east) / d, north: (b.north - a.north) / d)
        }

        func distance(from point: LocalPoint) -> Double {
            var best = Double.infinity
            for i in 0..<(points.count - 1) {
                let a = points[i]
                let b = points[i + 1]
                let end = LocalPoint(east: b.east - a.east, north: b.north - a.north)
                let p = LocalPoint(east: point.east - a.east, north: point.north - a.north)
                let squared = end.east * end.east + end.north * end.north
                let t = squared > 0 ? min(1, max(0, (p.east * end.east + p.north * end.north) / squared)) : 0
                best = min(best, p.distance(to: LocalPoint(east: end.east * t, north: end.north * t)))
            }
            return best
        }
    }
}
