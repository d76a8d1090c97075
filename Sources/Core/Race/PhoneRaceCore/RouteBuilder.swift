import RelayContract
import TrackCore

/// A runner's route of a race from their session's accepted fixes, small enough to share: its
/// positions simplified to `tolerance` metres (Ramer-Douglas-Peucker), and its progress (distance
/// against time) to the same tolerance at a runner's pace, so where they stood or sped up is
/// kept too; the tolerance doubles until the route fits the relay's limit. Pure.
public enum RouteBuilder {
    /// One accepted fix: its GPS time (Unix s), smoothed position and the session's distance after it.
    public struct Fix: Sendable, Equatable {
        public var time: Double
        public var position: GeoPoint
        public var distance: Double

        public init(time: Double, position: GeoPoint, distance: Double) {
            self.time = time
            self.position = position
            self.distance = distance
        }
    }

    /// Seconds weigh as this many metres when progress is simplified: at a runner's 3 m/s, a second
    /// off in time is three metres off in distance.
    static let metresPerSecond = 3.0

    /// The route from `fixes` (in time order) of a race that started at `startAt` (Unix s); nil when
    /// fewer than two fixes fall on the globe.
    public static func route(
        _ fixes: [Fix],
        startAt: Double,
        tolerance: Double = 3,
        maximumPoints: Int = RelayRoute.defaultMaximumPoints
    ) -> RelayRoute? {
        // Off the globe or no number: dropped. Times and distances never go back: a fix out of
        // order is dropped, not reordered.
        var kept: [Fix] = []
        for fix in fixes where fix.position.isPlausible && fix.time.isFinite && fix.distance.isFinite {
            if let last = kept.last, fix.time < last.time || fix.distance < last.distance { continue }
            kept.append(fix)
        }
        let fixes = kept
        guard fixes.count >= 2, maximumPoints >= 2 else { return nil }
        let frame = LocalFrame(origin: fixes[0].position)
        let positions = fixes.map { frame.project($0.position) }
        let progress = fixes.map {
            LocalPoint(east: ($0.time - fixes[0].time) * metresPerSecond, north: $0.distance)
        }
        var tolerance = max(tolerance, 0.1)
        var indices: [Int]
        repeat {
            let both = Set(TrackSimplifier.kept(positions, tolerance: tolerance))
                .union(TrackSimplifier.kept(progress, tolerance: tolerance))
            indices = both.sorted()
            tolerance *= 2
        } while indices.count > maximumPoints
        let points = indices.map { index in
            RelayRoute.Point(
                latitude: fixes[index].position.latitude,
                longitude: fixes[index].position.longitude,
                elapsed: max(0, fixes[index].time - startAt),
                distance: fixes[index].distance
            )
        }
        return try? RelayRoute(points: points)
    }
}
