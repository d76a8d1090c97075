/// One runner's route of a race as the relay keeps it (`relay.routes`): for each kept point its
/// position in 1e-7 degree, its time since the agreed start in tenths of a second and the runner's
/// distance there in decimetres. A route read from the relay is a stranger's: `init(validating:)`
/// checks it as the relay's `share_route` does, so a phone never draws what the relay would refuse.
public struct RelayRoute: Sendable, Equatable, Codable {
    public struct Point: Sendable, Equatable {
        public var latitude: Double
        public var longitude: Double
        /// Seconds since the race's agreed start.
        public var elapsed: Double
        /// The runner's distance there (m).
        public var distance: Double

        public init(latitude: Double, longitude: Double, elapsed: Double, distance: Double) {
            self.latitude = latitude
            self.longitude = longitude
            self.elapsed = elapsed
            self.distance = distance
        }
    }

    /// The relay's default `limits.route_points`.
    public static let defaultMaximumPoints = 5000

    public private(set) var latitudeE7: [Int32]
    public private(set) var longitudeE7: [Int32]
    public private(set) var elapsedDeciseconds: [Int32]
    public private(set) var distanceDecimetres: [Int32]

    enum CodingKeys: String, CodingKey {
        case latitudeE7 = "lat_e7"
        case longitudeE7 = "lon_e7"
        case elapsedDeciseconds = "elapsed_ds"
        case distanceDecimetres = "distance_dm"
    }

    /// Points in order (times and distances never go back), rounded to the relay's units.
    public init(points: [Point]) throws(RelayRouteProblem) {
        try self.init(
            validating: points.map { Self.units($0.latitude) },
            points.map { Self.units($0.longitude) },
            points.map { Self.tenths($0.elapsed) },
            points.map { Self.tenths($0.distance) },
            maximumPoints: Int.max
        )
    }

    /// The four arrays as the relay's columns hold them, checked.
    public init(
        validating latitudeE7: [Int32],
        _ longitudeE7: [Int32],
        _ elapsedDeciseconds: [Int32],
        _ distanceDecimetres: [Int32],
        maximumPoints: Int = 100_000
    ) throws(RelayRouteProblem) {
        let count = latitudeE7.count
        guard longitudeE7.count == count, elapsedDeciseconds.count == count, distanceDecimetres.count == count
        else { throw .shape("a route is four arrays of one length") }
        guard count >= 2, count <= maximumPoints else {
            throw .shape("a route has 2 to \(maximumPoints) points, not \(count)")
        }
        for index in 0..<count {
            guard abs(latitudeE7[index]) <= 900_000_000, abs(longitudeE7[index]) <= 1_800_000_000 else {
                throw .point(index + 1, "off the globe")
            }
            guard elapsedDeciseconds[index] >= 0, distanceDecimetres[index] >= 0,
                index == 0
                    || (elapsedDeciseconds[index] >= elapsedDeciseconds[index - 1]
                        && distanceDecimetres[index] >= distanceDecimetres[index - 1])
            else { throw .point(index + 1, "times and distances start at 0 and never go back") }
        }
        self.latitudeE7 = latitudeE7
        self.longitudeE7 = longitudeE7
        self.elapsedDeciseconds = elapsedDeciseconds
        self.distanceDecimetres = distanceDecimetres
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        try self.init(
            validating: try container.decode([Int32].self, forKey: .latitudeE7),
            try container.decode([Int32].self, forKey: .longitudeE7),
            try container.decode([Int32].self, forKey: .elapsedDeciseconds),
            try container.decode([Int32].self, forKey: .distanceDecimetres)
        )
    }

    public var count: Int { latitudeE7.count }

    public var points: [Point] {
        (0..<count).map { index in
            Point(
                latitude: Double(latitudeE7[index]) / 1e7,
                longitude: Double(longitudeE7[index]) / 1e7,
                elapsed: Double(elapsedDeciseconds[index]) / 10,
                distance: Double(distanceDecimetres[index]) / 10
            )
        }
    }

    /// The runner's distance (m) at `elapsed` s since the start, along the route's times: 0 before
    /// its first point, its last distance after its last.
    public func distance(at elapsed: Double) -> Double {
        let tenths = elapsed * 10
        guard let last = elapsedDeciseconds.last, tenths < Double(last) else {
            return Double(distanceDecimetres.last ?? 0) / 10
        }
        guard tenths > Double(elapsedDeciseconds[0]) else { return 0 }
        var low = 0
        var high = count - 1
        while high - low > 1 {
            let middle = (low + high) / 2
            if Double(elapsedDeciseconds[middle]) <= tenths { low = middle } else { high = middle }
        }
        let t0 = Double(elapsedDeciseconds[low])
        let t1 = Double(elapsedDeciseconds[high])
        let d0 = Double(distanceDecimetres[low])
        let d1 = Double(distanceDecimetres[high])
        let share = t1 > t0 ? (tenths - t0) / (t1 - t0) : 1
        return (d0 + (d1 - d0) * share) / 10
    }

    /// The route's time (s) and distance (m) at its end.
    public var end: (elapsed: Double, distance: Double) {
        (Double(elapsedDeciseconds.last ?? 0) / 10, Double(distanceDecimetres.last ?? 0) / 10)
    }

    /// Degrees in 1e-7 (not finite: a value no globe has).
    static func units(_ degrees: Double) -> Int32 { scaled(degrees, by: 1e7, notFinite: Int32.max) }

    private static func tenths(_ value: Double) -> Int32 { scaled(value, by: 10, notFinite: -1) }

    /// `value` in the relay's integer units (`scale` a unit), rounded and bounded to ±2e9;
    /// `notFinite` for a value that is not finite, one the relay's checks refuse.
    static func scaled(_ value: Double, by scale: Double, notFinite: Int32) -> Int32 {
        let scaled = (value * scale).rounded()
        return scaled.isFinite ? Int32(clamping: Int64(max(min(scaled, 2e9), -2e9))) : notFinite
    }
}

/// Why a route is not one the relay would keep.
public enum RelayRouteProblem: Error, Sendable, Equatable, CustomStringConvertible {
    case shape(String)
    case point(Int, String)

    public var description: String {
        switch self {
        case .shape(let why): why
        case .point(let index, let why): "point \(index): \(why)"
        }
    }
}
