import TrackCore

/// Where a position lies against a course: the distance along it of the nearest point (m) and how
/// far the position is from it (m).
public struct CourseMatch: Sendable, Equatable {
    public var along: Double
    public var away: Double

    public init(along: Double, away: Double) {
        self.along = along
        self.away = away
    }
}

extension Course {
    /// The best match of `position` among the segments between `from` and `to` metres along:
    /// the nearest, each metre along from `near` (when given: where the wearer is expected to be)
    /// counting `pull` metres against it, so that where a course passes the same place twice (out
    /// and back, a figure eight's crossing, a track's laps) the pass nearest the wearer's progress
    /// wins; and, given the wearer's `heading` (metres east and north since the last fix), a pass
    /// the wearer runs against costs up to `against` metres more: on an out-and-back's shared road
    /// the way out and the way back are the same line, and only the direction tells them apart.
    public func match(
        _ position: GeoPoint,
        from: Double = 0,
        to: Double = .infinity,
        near: Double? = nil,
        pull: Double = 0.02,
        heading: LocalPoint? = nil,
        against: Double = 10
    ) -> CourseMatch? {
        guard position.isPlausible, from <= to, from <= length else { return nil }
        let first = segment(containing: max(0, from))
        let last = segment(containing: min(length, to))
        var best: (match: CourseMatch, cost: Double)?
        for index in first...last {
            let found = match(position, onSegment: index)
            var cost = found.away + (near.map { pull * abs(found.along - $0) } ?? 0)
            if let heading { cost += against * max(0, -cosine(of: heading, withSegment: index)) }
            if best == nil || cost < best!.cost { best = (found, cost) }
        }
        return best?.match
    }

    /// The first pass of the course within `within` metres of `position` (the nearest point of
    /// that pass): where a wearer starts on a loop is its start, not its end.
    public func earliestMatch(_ position: GeoPoint, within: Double) -> CourseMatch? {
        guard position.isPlausible else { return nil }
        var best: CourseMatch?
        for index in 0..<(points.count - 1) {
            let found = match(position, onSegment: index)
            if found.away <= within {
                if best == nil || found.away < best!.away { best = found }
            } else if best != nil {
                return best
            }
        }
        return best
    }

    /// The cosine of the angle between `heading` and the segment's direction (0 for a point).
    func cosine(of heading: LocalPoint, withSegment index: Int) -> Double {
        let end = LocalFrame(origin: points[index].position).project(points[index + 1].position)
        let lengths = end.length * heading.length
        guard lengths > 0 else { return 0 }
        return (end.east * heading.east + end.north * heading.north) / lengths
    }

    /// The nearest point to `position` of the segment from points[index] to points[index + 1], in
    /// a plane at its start.
    func match(_ position: GeoPoint, onSegment index: Int) -> CourseMatch {
        let a = points[index]
        let b = points[index + 1]
        let frame = LocalFrame(origin: a.position)
        let end = frame.project(b.position)
        let point = frame.project(position)
        let squared = end.east * end.east + end.north * end.north
        let t = squared > 0 ? min(1, max(0, (point.east * end.east + point.north * end.north) / squared)) : 0
        let away = point.distance(to: LocalPoint(east: end.east * t, north: end.north * t))
        return CourseMatch(along: a.distance + t * (b.distance - a.distance), away: away)
    }
}
