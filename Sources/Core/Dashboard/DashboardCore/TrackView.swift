import TrackCore

/// Places a session's fixes for the page: metres east and north of its first fix (or of the start
/// of the course it follows, when that came first), seconds since that fix, paused or not, so the
/// page fits and scales the track with no tiles and no projection of its own. The same rows
/// always give the same points (a page that reconnects redraws alike).
public struct TrackView: Sendable {
    public struct Point: Sendable, Equatable {
        public var east: Double
        public var north: Double
        public var time: Double
        public var paused: Bool
    }

    public private(set) var origin: GeoPoint?
    private var frame: LocalFrame?
    private var firstTime: Double?

    public init() {}

    /// One accepted fix (GPS time, Unix s); nil for a position off the globe.
    public mutating func place(latitude: Double, longitude: Double, time: Double, paused: Bool) -> Point? {
        let point = GeoPoint(latitude: latitude, longitude: longitude)
        guard point.isPlausible else { return nil }
        let local = anchored(point).project(point)
        let first = firstTime ?? time
        firstTime = first
        return Point(east: local.east, north: local.north, time: time - first, paused: paused)
    }

    /// A course's points in the same frame (the frame starts at its first point if no fix came
    /// before); nil for a course with a point off the globe.
    public mutating func place(course: [GeoPoint]) -> [LocalPoint]? {
        guard let first = course.first, course.allSatisfy(\.isPlausible) else { return nil }
        let frame = anchored(first)
        return course.map(frame.project)
    }

    private mutating func anchored(_ point: GeoPoint) -> LocalFrame {
        if let frame { return frame }
        let made = LocalFrame(origin: point)
        origin = point
        frame = made
        return made
    }
}
