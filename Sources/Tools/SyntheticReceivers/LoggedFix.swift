import TrackCore

/// A fix with every field set, `i` seconds into a straight line: what the data log must give back
/// bit for bit.
public func loggedFix(_ i: Int) -> Fix {
    Fix(
        mode: 3,
        time: GPSTime(seconds: 1_750_000_000 + Double(i)),
        position: GeoPoint(latitude: 48.1 + Double(i) * 1e-5, longitude: 11.5),
        errorEast: 3.5,
        errorNorth: 4.5,
        horizontalError: 6.25,
        speed: 2.5,
        track: 90,
        speedError: 0.4,
        receivedAt: 1000.125 + Double(i)
    )
}
