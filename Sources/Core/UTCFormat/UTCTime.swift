/// ISO 8601 UTC times, written fast (a 12-hour 10 Hz session has 432 000 of them): whole seconds
/// as "2025-06-14T06:31:00Z", a fraction to the millisecond when there is one. By hand, for the
/// exports and the journal alike: Foundation's ISO 8601 format goes through the time zone and so
/// through ICU, whose data a daemon on a 512 MB wearable should never page in.
public enum UTCTime {
    public static func text(_ seconds: Double) -> String {
        let millis = Int((seconds * 1000).rounded())
        let whole = millis.floorDiv(1000)
        let fraction = millis - whole * 1000
        let days = whole.floorDiv(86_400)
        let rest = whole - days * 86_400
        let (year, month, day) = civil(days)
        var text = "\(year)-\(two(month))-\(two(day))T\(two(rest / 3600)):\(two(rest / 60 % 60)):\(two(rest % 60))"
        if fraction > 0 {
            let digits = String(fraction)
            text += "." + String(repeating: "0", count: 3 - digits.count) + digits
        }
        return text + "Z"
    }

    /// Days since 1970-01-01 to a civil date (Howard Hinnant's algorithm).
    private static func civil(_ days: Int) -> (Int, Int, Int) {
        let z = days + 719_468
        let era = z.floorDiv(146_097)
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func two(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }
}

extension Int {
    fileprivate func floorDiv(_ divisor: Int) -> Int {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }
}
