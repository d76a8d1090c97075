import TrackCore

/// A point of a course with its distance along it from the start (m).
public struct CoursePoint: Sendable, Equatable {
    public var position: GeoPoint
    public var distance: Double

    public init(position: GeoPoint, distance: Double) {
        self.position = position
        self.distance = distance
    }
}
