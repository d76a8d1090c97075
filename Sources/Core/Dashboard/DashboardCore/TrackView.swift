import TrackCore

/// Places a session's fixes for the page: metres east and north of its first fix, seconds since
/// that fix, paused or not, so the page fits and scales the track with no tiles and no projection
/// of its own. The same rows always give the same points (a page that reconnects redraws alike).
public struct TrackView: Sendable {
    public struct Point: Sendable, Equatable {
        public var east: Double
        public var north: Double
        public var time: Double
        public var paused: Bool
    }

    public private(set) var origin: GeoPoint?
    private var frame: LocalFrame?
    private var firstTime = 0.0

    public init() {}

    /// One accepted fix (GPS time, Unix s); nil for a position off the globe.
    public mutating func place(latitude: Double, longitude: Double, time: Double, paused: Bool) -> Point? {
        let point = GeoPoint(latitude: latitude, longitude: longitude)
        guard point.isPlausible else { return nil }
        if frame == nil {
            origin = point
            frame = LocalFrame(origin: point)
            firstTime = time
        }
        guard let local = frame?.project(point) else { return nil }
        return Point(east: local.east, north: local.north, time: time - firstTime, paused: paused)
    }
}
