import TrackCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a course's shape says: its turns, and a simpler line for a small device.
public enum CourseShape {
    /// A turn is a change of heading of at least `turnDegrees` between the `turnReach` metres before
    /// a point and the `turnReach` after it: a street corner (90° within a few metres) is one, a
    /// running track's bend (about 47° over 30 m of its 36.5 m radius) and a road's sweep are not.
    public static let turnDegrees = 50.0
    public static let turnReach = 15.0
    /// Turns closer than this (m) are one, the sharpest.
    public static let turnMerge = 30.0

    /// The turns its geometry shows.
    static func turns(_ points: [CoursePoint]) -> [CourseTurn] {
        guard let length = points.last?.distance, length > 2 * turnReach else { return [] }
        func position(_ distance: Double) -> GeoPoint { Course.position(at: distance, on: points) }
        var found: [(distance: Double, degrees: Double)] = []
        for point in points.dropFirst().dropLast()
        where point.distance >= turnReach && point.distance <= length - turnReach {
            let frame = LocalFrame(origin: point.position)
            let before = frame.project(position(point.distance - turnReach))
            let after = frame.project(position(point.distance + turnReach))
            let headingIn = atan2(-before.east, -before.north)
            let headingOut = atan2(after.east, after.north)
            var change = (headingOut - headingIn) * 180 / .pi
            if change > 180 { change -= 360 } else if change <= -180 { change += 360 }
            guard abs(change) >= turnDegrees else { continue }
            if let last = found.last, point.distance - last.distance < turnMerge {
                if abs(change) > abs(last.degrees) { found[found.count - 1] = (point.distance, change) }
            } else {
                found.append((point.distance, change))
            }
        }
        return found.map { CourseTurn(distance: $0.distance, direction: TurnDirection(degrees: $0.degrees)) }
    }

    /// The course with only the points a line within `tolerance` metres of it needs
    /// (Douglas-Peucker), its length and turns as they were: every turn's point is kept.
    public static func simplified(_ course: Course, tolerance: Double = 3) -> Course {
        let points = course.points
        var keep = [Bool](repeating: false, count: points.count)
        keep[0] = true
        keep[points.count - 1] = true
        for turn in course.turns {
            let index = course.segment(containing: turn.distance)
            let nearest =
                abs(points[index].distance - turn.distance) <= abs(points[index + 1].distance - turn.distance)
                ? index : index + 1
            keep[nearest] = true
        }
        let anchors = keep.indices.filter { keep[$0] }
        var stack = zip(anchors, anchors.dropFirst()).map { ($0, $1) }
        while let (first, last) = stack.popLast() {
            guard last - first > 1 else { continue }
            let frame = LocalFrame(origin: points[first].position)
            let end = frame.project(points[last].position)
            var farthest = first
            var distance = 0.0
            for index in (first + 1)..<last {
                let offset = Self.offset(of: frame.project(points[index].position), from: end)
                if offset > distance {
                    distance = offset
                    farthest = index
                }
            }
            guard distance > tolerance else { continue }
            keep[farthest] = true
            stack.append((first, farthest))
            stack.append((farthest, last))
        }
        let kept = points.indices.filter { keep[$0] }.map { points[$0] }
        return Course(name: course.name, kept: kept, turns: course.turns)
    }

    /// How far `point` lies from the segment from the origin to `end` (m).
    static func offset(of point: LocalPoint, from end: LocalPoint) -> Double {
        let squared = end.east * end.east + end.north * end.north
        guard squared > 0 else { return point.length }
        let t = min(1, max(0, (point.east * end.east + point.north * end.north) / squared))
        return point.distance(to: LocalPoint(east: end.east * t, north: end.north * t))
    }
}

extension Course {
    /// Kept points of a course, with their distances along the original (so a simplified course
    /// keeps its length and its turns where they were).
    init(name: String, kept: [CoursePoint], turns: [CourseTurn]) {
        self.name = name
        self.points = kept
        self.turns = turns
    }
}
