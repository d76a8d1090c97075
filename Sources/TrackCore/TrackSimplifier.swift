/// One smoothed point of the stored track.
public struct TrackPoint: Sendable, Equatable {
    public var time: GPSTime
    public var position: GeoPoint

    public init(time: GPSTime, position: GeoPoint) {
        self.time = time
        self.position = position
    }
}

/// Keeps the smoothed track with Ramer-Douglas-Peucker simplification, chunk by chunk.
///
/// Memory is bounded whatever the session's length: past `maxPoints` the kept track is simplified
/// again with a doubled tolerance, so a 12-hour 10 Hz session cannot grow without limit.
public struct TrackSimplifier: Sendable {
    public private(set) var tolerance: Double
    public let chunkSize: Int
    public let maxPoints: Int
    private var kept: [TrackPoint] = []
    private var pending: [TrackPoint] = []

    public init(tolerance: Double, chunkSize: Int = 512, maxPoints: Int = 20_000) {
        precondition(tolerance >= 0 && chunkSize >= 3 && maxPoints >= 16)
        self.tolerance = tolerance
        self.chunkSize = chunkSize
        self.maxPoints = maxPoints
        pending.reserveCapacity(chunkSize)
    }

    public mutating func append(_ point: TrackPoint) {
        pending.append(point)
        guard pending.count >= chunkSize else { return }
        let simplified = Self.simplify(pending, tolerance: tolerance)
        kept.append(contentsOf: simplified.dropLast())
        pending.removeAll(keepingCapacity: true)
        pending.append(simplified[simplified.count - 1])
        if kept.count > maxPoints {
            tolerance = max(tolerance * 2, 1)
            kept = Self.simplify(kept, tolerance: tolerance)
        }
    }

    /// The whole simplified track so far.
    public var points: [TrackPoint] {
        kept + Self.simplify(pending, tolerance: tolerance)
    }

    public var storedCount: Int { kept.count + pending.count }

    /// Ramer-Douglas-Peucker on an equirectangular plane around the first point (tolerance in metres).
    public static func simplify(_ points: [TrackPoint], tolerance: Double) -> [TrackPoint] {
        guard points.count > 2 else { return points }
        let frame = LocalFrame(origin: points[0].position)
        let local = points.map { frame.project($0.position) }
        var keep = [Bool](repeating: false, count: points.count)
        keep[0] = true
        keep[points.count - 1] = true
        var stack = [(0, points.count - 1)]
        while let (first, last) = stack.popLast() {
            guard last > first + 1 else { continue }
            var worst = 0.0
            var worstIndex = first
            for i in (first + 1)..<last {
                let d = distance(local[i], fromSegment: local[first], local[last])
                if d > worst {
                    worst = d
                    worstIndex = i
                }
            }
            if worst > tolerance {
                keep[worstIndex] = true
                stack.append((first, worstIndex))
                stack.append((worstIndex, last))
            }
        }
        return points.indices.filter { keep[$0] }.map { points[$0] }
    }

    private static func distance(_ p: LocalPoint, fromSegment a: LocalPoint, _ b: LocalPoint) -> Double {
        let de = b.east - a.east
        let dn = b.north - a.north
        let lengthSquared = de * de + dn * dn
        guard lengthSquared > 0 else { return p.distance(to: a) }
        let t = max(0, min(1, ((p.east - a.east) * de + (p.north - a.north) * dn) / lengthSquared))
        return p.distance(to: LocalPoint(east: a.east + t * de, north: a.north + t * dn))
    }
}
