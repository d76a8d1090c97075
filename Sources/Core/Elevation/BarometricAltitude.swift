#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Altitude from static pressure by the International Standard Atmosphere's troposphere
/// (ICAO Doc 7488: 288.15 K at sea level, a lapse of 6.5 K/km, exponent 0.190263): accurate in
/// its differences to a few parts in a thousand below 11 km, whatever the day's sea-level pressure,
/// which the calibration against GPS absorbs.
public enum BarometricAltitude {
    /// The standard sea-level pressure in kPa, as the kernel's IIO drivers report pressure.
    public static let standardSeaLevel = 101.325

    /// Metres above the level where the pressure is `seaLevel` kPa.
    public static func altitude(pressure: Double, seaLevel: Double = standardSeaLevel) -> Double {
        44330.77 * (1 - pow(pressure / seaLevel, 0.190263))
    }

    /// The inverse: the pressure in kPa at `altitude` metres.
    public static func pressure(altitude: Double, seaLevel: Double = standardSeaLevel) -> Double {
        seaLevel * pow(1 - altitude / 44330.77, 1 / 0.190263)
    }

    /// Pressures a barometer can read on the ground or in a plane's cabin (30-110 kPa); anything
    /// else is a broken sensor or a unit mistaken, never an altitude.
    public static func plausible(_ pressure: Double) -> Bool {
        pressure.isFinite && (30...110).contains(pressure)
    }
}
