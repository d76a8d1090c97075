/// One straight, steady stretch run with good GPS: what the GPS and the footpod each said of it.
public struct CalibrationStretch: Sendable, Equatable, Codable {
    /// Monotonic seconds of its start and end.
    public var start: Double
    public var end: Double
    public var gpsMetres: Double
    public var footpodMetres: Double
    /// The footpod's mean speed over it (m/s), and its pace band.
    public var speed: Double
    public var band: Int

    public init(start: Double, end: Double, gpsMetres: Double, footpodMetres: Double, speed: Double, band: Int) {
        self.start = start
        self.end = end
        self.gpsMetres = gpsMetres
        self.footpodMetres = footpodMetres
        self.speed = speed
        self.band = band
    }

    /// The factor this stretch says the footpod's distance needs.
    public var ratio: Double { gpsMetres / footpodMetres }
}
