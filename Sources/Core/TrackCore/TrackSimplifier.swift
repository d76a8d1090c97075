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
        return kept(points.map { frame.project($0.position) }, tolerance: tolerance).map { points[$0] }
    }

    /// Ramer-Douglas-Peucker on a plane: the indices of the points kept, in order (the first and the
    /// last always).
    public static func kept(_ local: [LocalPoint], tolerance: Double) -> [Int] {
        guard local.count > 2 else { return Array(local.indices) }
        var keep = [Bool](repeating: false, count: local.count)
        keep[0] = true
        keep[local.count - 1] = true
        var stack = [(0, local.count - 1)]
        // Squared distances throughout: the same ordering and the same test, without a root per point.
        let toleranceSquared = tolerance * tolerance
        while let (first, last) = stack.popLast() {
            guard last > first + 1 else { continue }
            var worst = 0.0
            var worstIndex = first
            let segment = Segment(from: local[first], to: local[last])
            for i in (first + 1)..<last {
                let d = segment.squaredDistance(to: local[i])
                if d > worst {
                    worst = d
                    worstIndex = i
                }
            }
            if worst > toleranceSquared {
                keep[worstIndex] = true
                stack.append((first, worstIndex))
                stack.append((worstIndex, last))
            }
        }
        return local.indices.filter { keep[$0] }
    }

    /// A segment with its direction and inverse squared length worked out once for all its points.
    private struct Segment {
        let a: LocalPoint
        let de: Double
        let dn: Double
        let inverseLengthSquared: Double

        init(from a: LocalPoint, to b: LocalPoint) {
            self.a = a
            de = b.east - a.east
            dn = b.north - a.north
            let lengthSquared = de * de + dn * dn
            inverseLengthSquared = lengthSquared > 0 ? 1 / lengthSquared : 0
        }

        func squaredDistance(to p: LocalPoint) -> Double {
            let pe = p.east - a.east
            let pn = p.north - a.north
            let t = max(0, min(1, (pe * de + pn * dn) * inverseLengthSquared))
            let ee = pe - t * de
            let en = pn - t * dn
            return ee * ee + en * en
        }
    }
}
