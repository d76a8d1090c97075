import UTCFormat

/// RFC 4180 CSV, a header row, CRLF line ends: one row per fix with its verdict and the distance
/// so far, or (`beats`) one row per beat with its RR intervals.
public struct CSVExporter: Exporter {
    public let beats: Bool
    private var source = "gps"

    public init(beats: Bool = false) {
        self.beats = beats
    }

    public mutating func begin(_ session: ExportSession, into file: OutputFile) throws(ExportError) {
        source = session.distanceSource.rawValue
        try file.write(
            beats
                ? "time,bpm,rr_ms\r\n"
                : "time,lat,lon,smoothed_lat,smoothed_lon,speed_mps,error_m,verdict,distance_m,heart_rate,cadence_spm\r\n"
        )
    }

    public mutating func take(_ item: ExportItem, into file: OutputFile) throws(ExportError) {
        switch item {
        case .point(let point) where !beats:
            let fields = [
                UTCTime.text(point.time), number(point.raw?.latitude, 7), number(point.raw?.longitude, 7),
                number(point.smoothed?.latitude, 7), number(point.smoothed?.longitude, 7), number(point.speed, 2),
                number(point.error, 1), point.verdict, number(point.distance, 2),
                point.heartRate.map(String.init) ?? "", point.cadence.map(String.init) ?? "",
            ]
            try file.write(fields.joined(separator: ",") + "\r\n")
        case .stride(let stride) where !beats:
            // Indoors: no position; the verdict column names where the distance came from.
            let fields = [
                UTCTime.text(stride.time), "", "", "", "", number(stride.speed, 2), "", source,
                number(stride.distance, 2), stride.heartRate.map(String.init) ?? "",
                stride.cadence.map(String.init) ?? "",
            ]
            try file.write(fields.joined(separator: ",") + "\r\n")
        case .beat(let beat) where beats:
            // Several RR intervals share one field, space-separated (a quoted field is not needed).
            let rr = beat.rrIntervals.map { number($0 * 1000, 1) }.joined(separator: " ")
            try file.write("\(beat.time.map(UTCTime.text) ?? ""),\(beat.bpm),\(rr)\r\n")
        default:
            break
        }
    }

    public mutating func end(_ totals: ExportTotals, into file: OutputFile) throws(ExportError) {}

    private func number(_ value: Double?, _ decimals: Int) -> String {
        guard let value, value.isFinite else { return "" }
        return Decimals.text(value, decimals)
    }
}

/// A number with at most `decimals` decimals, no exponent, no trailing zeros.
enum Decimals {
    static func text(_ value: Double, _ decimals: Int) -> String {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        let whole = (scaled / scale).rounded(.down)
        var fraction = String(Int(scaled - whole * scale))
        fraction = String(repeating: "0", count: max(0, decimals - fraction.count)) + fraction
        while fraction.last == "0" { fraction.removeLast() }
        let sign = value < 0 && scaled > 0 ? "-" : ""
        return sign + String(Int(whole)) + (fraction.isEmpty ? "" : "." + fraction)
    }
}
