/// A WGS84 latitude/longitude in degrees.
public struct GeoPoint: Hashable, Sendable {
    public var latitude: Double
    public var longitude: Double

    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// True when both coordinates are finite and on the globe; (0, 0) counts as invalid because
    /// receivers without a fix report it while claiming one.
    public var isPlausible: Bool {
        latitude.isFinite && longitude.isFinite
            && abs(latitude) <= 90 && abs(longitude) <= 180
            && !(latitude == 0 && longitude == 0)
    }
}
