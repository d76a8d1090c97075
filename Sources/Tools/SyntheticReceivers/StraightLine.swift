import TrackCore

/// A receiver walking a straight line east, one fix a second: the session and engine tests'
/// plain input, on a clock whose monotonic instants run 1000 s ahead of GPS time minus `t0` (a
/// boot with a wrong wall clock).
public enum StraightLine {
    /// GPS time of the first synthetic fix.
    public static let t0 = 1_750_000_000.0

    /// Receive instant of a fix at GPS time `t`.
    public static func received(_ t: Double) -> Double { t - t0 + 1000.05 }

    /// Fixes east at `speed` from GPS time `start` on, for `seconds` seconds.
    public static func fixes(from start: Double, seconds: Int, speed: Double = 3, startEast: Double = 0) -> [Fix] {
        let frame = LocalFrame(origin: GeoPoint(latitude: 48.137, longitude: 11.575))
        return (0..<seconds).map { i in
            let t = start + Double(i)
            let east = startEast + speed * (t - t0)
            return Fix(
                mode: 3,
                time: GPSTime(seconds: t),
                position: frame.unproject(LocalPoint(east: east, north: 0)),
                errorEast: 3,
                errorNorth: 3,
                horizontalError: 4,
                speed: speed,
                track: 90,
                speedError: 0.3,
                receivedAt: received(t)
            )
        }
    }
}
