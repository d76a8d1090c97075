/// Durations, paces and decimals as a field tester reads them on a terminal.
enum TextFormat {
    /// m:ss, or h:mm:ss from an hour on.
    static func clock(_ seconds: Double) -> String {
        let total = Int(seconds.rounded())
        let (h, m, s) = (total / 3600, total / 60 % 60, total % 60)
        let mm = m < 10 ? "0\(m)" : "\(m)"
        let ss = s < 10 ? "0\(s)" : "\(s)"
        return h > 0 ? "\(h):\(mm):\(ss)" : "\(m):\(ss)"
    }

    /// m:ss /km, or "-" before there is a pace.
    static func pace(_ secondsPerKm: Double?) -> String {
        guard let secondsPerKm, secondsPerKm.isFinite else { return "-" }
        return clock(secondsPerKm) + " /km"
    }

    /// A fixed number of decimals without Foundation's locale ("-" for a value that is not a number;
    /// no decimal point for none).
    static func format(_ value: Double, _ places: Int) -> String {
        guard value.isFinite, abs(value) < 1e15 else { return "-" }
        guard places > 0 else { return String(Int(value.rounded())) }
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        let scaled = Int((value * scale).rounded())
        let whole = scaled / Int(scale)
        let fraction = abs(scaled % Int(scale))
        let digits = String(fraction)
        let sign = value < 0 && whole == 0 && scaled != 0 ? "-" : ""
        return "\(sign)\(whole).\(String(repeating: "0", count: places - digits.count))\(digits)"
    }
}
