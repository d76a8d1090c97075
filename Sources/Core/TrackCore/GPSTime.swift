/// A GPS epoch as UTC seconds since 1970, as gpsd reports it in `TPV.time`.
///
/// Only ever compared with other GPS times: the system clock of a board without RTC
/// can be years off at boot, so it never meets a `GPSTime`.
public struct GPSTime: Hashable, Comparable, Sendable {
    public var seconds: Double

    public init(seconds: Double) {
        self.seconds = seconds
    }

    public static func < (lhs: GPSTime, rhs: GPSTime) -> Bool { lhs.seconds < rhs.seconds }

    /// Seconds from `other` to `self`.
    public func since(_ other: GPSTime) -> Double { seconds - other.seconds }

    public func adding(_ interval: Double) -> GPSTime { GPSTime(seconds: seconds + interval) }
}
