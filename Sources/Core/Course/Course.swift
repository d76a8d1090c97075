import TrackCore

/// A planned route: its points with their distances along it, and its turns. Distances are summed
/// segment by segment, each in a local plane at its own start (`LocalFrame`), so a marathon's
/// length is not bent by one plane's scale far from its origin.
public struct Course: Sendable, Equatable {
    public let name: String
    public let points: [CoursePoint]
    public let turns: [CourseTurn]

    public var length: Double { points.last?.distance ?? 0 }

    /// `turns` as the course's file declares them (distances along it); nil: found in its shape
    /// (`CourseShape.turns`). Nil when it has fewer than two distinct plausible points.
    public init?(name: String, positions: [GeoPoint], turns: [CourseTurn]? = nil) {
        var points: [CoursePoint] = []
        for position in positions where position.isPlausible {
            guard let last = points.last else {
                points.append(CoursePoint(position: position, distance: 0))
                continue
            }
            let step = LocalFrame(origin: last.position).project(position).length
            guard step > 0 else { continue }
            points.append(CoursePoint(position: position, distance: last.distance + step))
        }
        guard points.count >= 2 else { return nil }
        self.name = name
        self.points = points
        self.turns = (turns ?? CourseShape.turns(points)).sorted { $0.distance < $1.distance }
    }

    /// The longest course kept (m).
    public static let maximumLength = 1_000_000.0

    /// A course from points that carry their distances along it (a simplified course, as the phone
    /// sends it; the distances are the original's, so it keeps its length). Nil unless there are two
    /// points at least, every position plausible, the distances starting at 0, each step no shorter
    /// than the straight line between its points (less 1 m for rounding) and the whole within
    /// `maximumLength`, and every turn on the course.
    public init?(name: String, points: [CoursePoint], turns: [CourseTurn]) {
        guard points.count >= 2, let first = points.first, first.distance == 0, first.position.isPlausible else {
            return nil
        }
        for (a, b) in zip(points, points.dropFirst()) {
            guard b.position.isPlausible, b.distance.isFinite, b.distance > a.distance else { return nil }
            let chord = LocalFrame(origin: a.position).project(b.position).length
            guard b.distance - a.distance >= chord - 1 else { return nil }
        }
        guard let length = points.last?.distance, length <= Self.maximumLength,
            turns.allSatisfy({ $0.distance.isFinite && $0.distance >= 0 && $0.distance <= length })
        else { return nil }
        self.init(name: name, kept: points, turns: turns.sorted { $0.distance < $1.distance })
    }

    /// The position at `distance` along the course (clamped to its ends).
    public func position(at distance: Double) -> GeoPoint { Self.position(at: distance, on: points) }

    /// The index of the segment (points[i]...points[i+1]) that `distance` falls in.
    func segment(containing distance: Double) -> Int { Self.segment(containing: distance, of: points) }

    static func segment(containing distance: Double, of points: [CoursePoint]) -> Int {
        var low = 0
        var high = points.count - 2
        while low < high {
            let mid = (low + high + 1) / 2
            if points[mid].distance <= distance { low = mid } else { high = mid - 1 }
        }
        return low
    }

    static func position(at distance: Double, on points: [CoursePoint]) -> GeoPoint {
        let index = segment(containing: distance, of: points)
        let a = points[index]
        let b = points[index + 1]
        let frame = LocalFrame(origin: a.position)
        let end = frame.project(b.position)
        let t = min(1, max(0, (distance - a.distance) / (b.distance - a.distance)))
        return frame.unproject(LocalPoint(east: end.east * t, north: end.north * t))
    }
}
