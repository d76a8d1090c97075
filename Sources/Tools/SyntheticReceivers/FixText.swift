import Foundation
import TrackCore
import UTCFormat

/// A fix as gpsd's JSON reports it, and as the NMEA 0183 a plain receiver sends for it (RMC, GGA
/// and GSA, with the HDOP that gpsd's error model turns back into about this `eph`: 15 m a unit).
public enum FixText {
    /// Decimals written of each field: 9 for degrees (0.1 mm), 3 for metres and m/s, 4 for the course.
    static let degreesDigits = 9
    static let digits = (error: 3, speed: 3, track: 4)

    /// The fix as a reader of its JSON gets it back: every field rounded to the digits written.
    public static func printed(_ fix: Fix) -> Fix {
        func round(_ value: Double?, _ digits: Int) -> Double? { value.flatMap { Double(format($0, digits)) } }
        var printed = fix
        printed.position = fix.position.map {
            GeoPoint(
                latitude: Double(format($0.latitude, degreesDigits))!,
                longitude: Double(format($0.longitude, degreesDigits))!
            )
        }
        printed.errorEast = round(fix.errorEast, digits.error)
        printed.errorNorth = round(fix.errorNorth, digits.error)
        printed.horizontalError = round(fix.horizontalError, digits.error)
        printed.speed = round(fix.speed, digits.speed)
        printed.track = round(fix.track, digits.track)
        printed.speedError = round(fix.speedError, digits.error)
        return printed
    }

    /// gpsd's TPV line for the fix.
    public static func tpv(_ fix: Fix) -> String {
        var fields = [#""class":"TPV""#, #""device":"/dev/ttyACM0""#, #""mode":\#(fix.mode)"#]
        if let time = fix.time { fields.append(#""time":"\#(UTCTime.text(time.seconds))""#) }
        if let position = fix.position {
            fields.append(
                #""lat":\#(format(position.latitude, degreesDigits)),"lon":\#(format(position.longitude, degreesDigits))"#
            )
        }
        let optional: [(String, Double?, Int)] = [
            ("epx", fix.errorEast, digits.error), ("epy", fix.errorNorth, digits.error),
            ("eph", fix.horizontalError, digits.error), ("speed", fix.speed, digits.speed),
            ("track", fix.track, digits.track), ("eps", fix.speedError, digits.error),
        ]
        for (name, value, digits) in optional {
            if let value { fields.append(#""\#(name)":\#(format(value, digits))"#) }
        }
        return "{" + fields.joined(separator: ",") + "}"
    }

    /// The NMEA sentences a plain receiver sends for the fix; a fix without a position is an
    /// epoch without one (RMC void, GGA quality 0).
    public static func sentences(_ fix: Fix) -> [String] {
        guard let time = fix.time else { return [] }
        // "2025-06-14T06:31:00Z" gives the NMEA time 063100.00 and date 140625.
        let text = Array(UTCTime.text(time.seconds))
        let hms = String(text[11..<13] + text[14..<16] + text[17..<19]) + ".00"
        let date = String(text[8..<10] + text[5..<7] + text[2..<4])
        guard let position = fix.position, fix.mode >= 2 else {
            return [sentence("GPRMC,\(hms),V,,,,,,,\(date),,,N"), sentence("GPGGA,\(hms),,,,,0,00,99.9,,M,,M,,")]
        }
        let latitude = degreesMinutes(abs(position.latitude), width: 2) + (position.latitude >= 0 ? ",N" : ",S")
        let longitude = degreesMinutes(abs(position.longitude), width: 3) + (position.longitude >= 0 ? ",E" : ",W")
        let knots = fix.speed.map { format($0 / 0.514444, 3) } ?? ""
        let course = fix.track.map { format($0, 2) } ?? ""
        let hdop = (fix.horizontalError ?? 15) / 15
        return [
            sentence("GPRMC,\(hms),A,\(latitude),\(longitude),\(knots),\(course),\(date),,,A"),
            sentence("GPGGA,\(hms),\(latitude),\(longitude),1,10,\(format(hdop, 2)),10.0,M,40.0,M,,"),
            sentence("GPGSA,A,3,01,03,07,08,11,14,17,19,22,28,,,\(format(1.6 * hdop, 2)),\(format(hdop, 2)),1.30"),
        ]
    }

    private static func sentence(_ body: String) -> String {
        let checksum = body.utf8.reduce(UInt8(0)) { $0 ^ $1 }
        return "$" + body + "*" + String(format: "%02X", checksum)
    }

    /// ddmm.mmmmm or dddmm.mmmmm.
    private static func degreesMinutes(_ value: Double, width: Int) -> String {
        var degrees = Int(value)
        var minutes = ((value - Double(degrees)) * 60 * 100_000).rounded() / 100_000
        if minutes >= 60 {
            degrees += 1
            minutes -= 60
        }
        let whole = String(degrees)
        return String(repeating: "0", count: max(0, width - whole.count)) + whole
            + (minutes < 10 ? "0" : "") + format(minutes, 5)
    }

    private static func format(_ value: Double, _ digits: Int) -> String {
        String(format: "%.\(digits)f", value)
    }
}
