/// One position report as the receiver gave it, before any judgement.
///
/// Every field but `mode` is optional because gpsd omits what it does not know; the gate, not the
/// decoder, decides what a missing field means.
public struct Fix: Sendable, Equatable {
    /// gpsd's fix mode: 0 unknown, 1 no fix, 2 two-dimensional, 3 three-dimensional.
    public var mode: Int
    public var time: GPSTime?
    public var position: GeoPoint?
    /// 95% error estimates in metres along longitude and latitude (gpsd `epx`, `epy`).
    public var errorEast: Double?
    public var errorNorth: Double?
    /// gpsd `eph`: horizontal error in metres, on plain NMEA receivers derived from DOP.
    public var horizontalError: Double?
    /// Doppler speed over ground in m/s and course in degrees from true north.
    public var speed: Double?
    public var track: Double?
    /// gpsd `eps`: speed error estimate in m/s.
    public var speedError: Double?
    /// Metres above mean sea level (gpsd `altMSL`, or `alt`), else above the ellipsoid (`altHAE`).
    public var altitude: Double?
    /// gpsd `epv`: 95 % vertical error in metres, on plain NMEA receivers derived from VDOP.
    public var verticalError: Double?
    /// When the report reached us, in seconds on the receiving process's monotonic clock.
    /// Absent in replays of recordings, where staleness cannot be judged.
    public var receivedAt: Double?

    public init(
        mode: Int,
        time: GPSTime?,
        position: GeoPoint?,
        errorEast: Double? = nil,
        errorNorth: Double? = nil,
        horizontalError: Double? = nil,
        speed: Double? = nil,
        track: Double? = nil,
        speedError: Double? = nil,
        altitude: Double? = nil,
        verticalError: Double? = nil,
        receivedAt: Double? = nil
    ) {
        self.mode = mode
        self.time = time
        self.position = position
        self.errorEast = errorEast
        self.errorNorth = errorNorth
        self.horizontalError = horizontalError
        self.speed = speed
        self.track = track
        self.speedError = speedError
        self.altitude = altitude
        self.verticalError = verticalError
        self.receivedAt = receivedAt
    }

    /// One scalar horizontal error for gating: `eph` when given, else the magnitude of `epx`/`epy`.
    public var gatingError: Double? {
        if let horizontalError, horizontalError.isFinite, horizontalError >= 0 { return horizontalError }
        if let errorEast, let errorNorth, errorEast.isFinite, errorNorth.isFinite {
            return (errorEast * errorEast + errorNorth * errorNorth).squareRoot()
        }
        return nil
    }
}
