/// A log line's time, "2026-11-26T07:14:38Z", formatted by hand.
///
/// Foundation's ISO 8601 format style goes through the time zone and so through ICU, whose 30 MB
/// of data a daemon on a 512 MB wearable should never page in for a timestamp.
public enum UTCStamp {
    public static func iso8601(unixSeconds: Int64) -> String {
        let days = unixSeconds >= 0 ? unixSeconds / 86_400 : (unixSeconds - 86_399) / 86_400
        let secondOfDay = Int(unixSeconds - days * 86_400)
        let (year, month, day) = civil(fromDays: days)
        var text = ""
        text.reserveCapacity(20)
        func append(_ value: Int, width: Int) {
            let digits = String(value)
            text += String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        append(year, width: 4)
        text += "-"
        append(month, width: 2)
        text += "-"
        append(day, width: 2)
        text += "T"
        append(secondOfDay / 3600, width: 2)
        text += ":"
        append(secondOfDay / 60 % 60, width: 2)
        text += ":"
        append(secondOfDay % 60, width: 2)
        text += "Z"
        return text
    }

    /// The proleptic Gregorian date of a day counted from 1970-01-01 (Howard Hinnant's algorithm).
    static func civil(fromDays days: Int64) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
        return (Int(year), Int(month), Int(day))
    }
}
