/// Numbers as a listener wants them: "5.2 kilometres", "24 minutes 10 seconds", "4 minutes 50
/// per kilometre", in the catalog's words and decimal separator (the synthesizer reads digits).
struct Phrasing {
    let catalog: CueCatalog
    let units: UnitSystem

    /// Under a kilometre in metres (to 10 m); otherwise kilometres or miles to two decimals
    /// (one from 10 on).
    func distance(_ metres: Double) -> String {
        if units == .metric, metres < 1000 {
            let rounded = (metres / 10).rounded() * 10
            return "\(number(rounded, decimals: 0)) \(catalog.word("metre", count: rounded))"
        }
        let value = metres / units.unitLength
        let decimals = value < 10 ? 2 : 1
        let shown = rounded(value, decimals: decimals)
        return
            "\(number(shown, decimals: decimals)) \(catalog.word(units == .metric ? "kilometre" : "mile", count: shown))"
    }

    /// A height climbed: whole metres, or feet in imperial units.
    func height(_ metres: Double) -> String {
        if units == .metric {
            let rounded = metres.rounded()
            return "\(number(rounded, decimals: 0)) \(catalog.word("metre", count: rounded))"
        }
        let feet = (metres / 0.3048).rounded()
        return "\(number(feet, decimals: 0)) \(catalog.word("foot", count: feet))"
    }

    /// A gap between two runners, sign dropped: whole metres under 100 m (a race is close there),
    /// otherwise as any distance.
    func gap(_ metres: Double) -> String {
        let size = abs(metres)
        guard units == .metric, size < 100 else { return distance(size) }
        let rounded = size.rounded()
        return "\(number(rounded, decimals: 0)) \(catalog.word("metre", count: rounded))"
    }

    /// Whole seconds as hours, minutes and seconds, zero parts left out.
    func duration(_ seconds: Double) -> String {
        let total = max(0, Int(seconds.rounded()))
        let (hours, minutes, rest) = (total / 3600, total / 60 % 60, total % 60)
        var parts: [String] = []
        if hours > 0 { parts.append("\(hours) \(catalog.word("hour", count: Double(hours)))") }
        if minutes > 0 { parts.append("\(minutes) \(catalog.word("minute", count: Double(minutes)))") }
        if rest > 0 || parts.isEmpty { parts.append("\(rest) \(catalog.word("second", count: Double(rest)))") }
        return parts.joined(separator: " ")
    }

    /// A pace given in s/km, spoken per kilometre or per mile.
    func pace(_ secondsPerKilometre: Double) -> String {
        let perUnit = Int((secondsPerKilometre * units.unitLength / 1000).rounded())
        let (minutes, seconds) = (perUnit / 60, perUnit % 60)
        let per = catalog.fill(units == .metric ? "per_kilometre" : "per_mile")
        return catalog.fill(
            seconds == 0 ? "pace_even" : "pace",
            [
                "minutes": String(minutes), "minute": catalog.word("minute", count: Double(minutes)),
                "seconds": String(seconds), "per": per,
            ]
        )
    }

    /// Up to `decimals` decimals, trailing zeros dropped, with the catalog's separator.
    func number(_ value: Double, decimals: Int) -> String {
        var scale = 1
        for _ in 0..<decimals { scale *= 10 }
        let scaled = Int((abs(value) * Double(scale)).rounded())
        var fraction = String(scaled % scale)
        fraction = String(repeating: "0", count: max(0, decimals - fraction.count)) + fraction
        while fraction.last == "0" { fraction.removeLast() }
        let whole = (value < 0 && scaled > 0 ? "-" : "") + String(scaled / scale)
        return decimals == 0 || fraction.isEmpty ? whole : whole + catalog.decimalSeparator + fraction
    }

    private func rounded(_ value: Double, decimals: Int) -> Double {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        return (value * scale).rounded() / scale
    }
}
