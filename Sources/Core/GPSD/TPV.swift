import TrackCore

/// gpsd's time-position-velocity report: the fields wearbridge uses, all optional but `mode`.
public struct TPV: Sendable, Equatable {
    public var device: String?
    public var mode: Int
    public var time: GPSTime?
    public var latitude: Double?
    public var longitude: Double?
    /// Metres above mean sea level (`altMSL`, or `alt` from gpsd before 3.20), else above the
    /// ellipsoid (`altHAE`) when that is all the receiver gives.
    public var altitude: Double?
    public var epx: Double?
    public var epy: Double?
    public var eph: Double?
    /// 95 % vertical error, metres.
    public var epv: Double?
    public var speed: Double?
    public var track: Double?
    public var eps: Double?
    public var climb: Double?

    public init(
        device: String? = nil,
        mode: Int,
        time: GPSTime? = nil,
        latitude: Double? = nil,
        longitude: Double? = nil,
        altitude: Double? = nil,
        epx: Double? = nil,
        epy: Double? = nil,
        eph: Double? = nil,
        epv: Double? = nil,
        speed: Double? = nil,
        track: Double? = nil,
        eps: Double? = nil,
        climb: Double? = nil
    ) {
        self.device = device
        self.mode = mode
        self.time = time
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
        self.epx = epx
        self.epy = epy
        self.eph = eph
        self.epv = epv
        self.speed = speed
        self.track = track
        self.eps = eps
        self.climb = climb
    }

    /// The core's view of this report; `receivedAt` is the monotonic receive instant, if live.
    public func fix(receivedAt: Double? = nil) -> Fix {
        let position: GeoPoint? =
            if let latitude, let longitude { GeoPoint(latitude: latitude, longitude: longitude) } else { nil }
        return Fix(
            mode: mode,
            time: time,
            position: position,
            errorEast: epx,
            errorNorth: epy,
            horizontalError: eph,
            speed: speed,
            track: track,
            speedError: eps,
            altitude: altitude,
            verticalError: epv,
            receivedAt: receivedAt
        )
    }
}

extension TPV: Decodable {
    private enum Keys: String, CodingKey {
        case device, mode, time, lat, lon, altHAE, altMSL, alt, epx, epy, eph, epv, speed, track, eps, climb
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        device = try c.decodeIfPresent(String.self, forKey: .device)
        mode = try c.decodeIfPresent(Int.self, forKey: .mode) ?? 0
        if let text = try c.decodeIfPresent(String.self, forKey: .time) {
            guard let parsed = ISO8601Time.parse(text) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .time,
                    in: c,
                    debugDescription: "not an ISO 8601 UTC time: \(text.prefix(40))"
                )
            }
            time = parsed
        }
        latitude = try c.decodeIfPresent(Double.self, forKey: .lat)
        longitude = try c.decodeIfPresent(Double.self, forKey: .lon)
        altitude =
            try c.decodeIfPresent(Double.self, forKey: .altMSL) ?? c.decodeIfPresent(Double.self, forKey: .alt)
            ?? c.decodeIfPresent(Double.self, forKey: .altHAE)
        epx = try c.decodeIfPresent(Double.self, forKey: .epx)
        epy = try c.decodeIfPresent(Double.self, forKey: .epy)
        eph = try c.decodeIfPresent(Double.self, forKey: .eph)
        epv = try c.decodeIfPresent(Double.self, forKey: .epv)
        speed = try c.decodeIfPresent(Double.self, forKey: .speed)
        track = try c.decodeIfPresent(Double.self, forKey: .track)
        eps = try c.decodeIfPresent(Double.self, forKey: .eps)
        climb = try c.decodeIfPresent(Double.self, forKey: .climb)
    }
}

extension TPV {
    /// gpsd's report of a fix: the inverse of `fix(receivedAt:)`, for feeding fixes as gpsd would.
    public init(_ fix: Fix) {
        self.init(
            mode: fix.mode,
            time: fix.time,
            latitude: fix.position?.latitude,
            longitude: fix.position?.longitude,
            altitude: fix.altitude,
            epx: fix.errorEast,
            epy: fix.errorNorth,
            eph: fix.horizontalError,
            epv: fix.verticalError,
            speed: fix.speed,
            track: fix.track,
            eps: fix.speedError
        )
    }
}
