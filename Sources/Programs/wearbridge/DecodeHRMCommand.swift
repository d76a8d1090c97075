import ArgumentParser
import HeartRate
import HexCoding

/// `wearbridge decode-hrm HEX`: what a Heart Rate Measurement payload means, for the field.
struct DecodeHRMCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode-hrm",
        abstract: "Decode a Heart Rate Measurement (0x2A37) payload given as hex.",
        discussion: """
            HEX may have spaces, colons, commas or 0x prefixes: "16 3c f5 03", "16:3c:f5:03". A payload \
            whose fields are cut short is an error (exit status 1) that names the field and offset; a \
            dangling byte after the last RR interval is reported, not decoded.
            """
    )

    @Argument(help: "The payload as hex.")
    var hex: String

    @Flag(help: "JSON: bpm, contact, energy_kj, rr_ms, rr_raw, trailing_bytes.")
    var json = false

    func run() throws {
        let measurement: HeartRateMeasurement
        do {
            measurement = try HeartRateMeasurement(payload: Hex.decode(hex))
        } catch {
            StandardError.line("wearbridge: cannot decode \"\(hex)\": \(error)")
            throw ExitCode(1)
        }
        StandardOutput.line(json ? try JSONLine.encode(HRMJSON(measurement)) : Self.text(measurement))
    }

    static func text(_ m: HeartRateMeasurement) -> String {
        var parts = ["\(m.bpm) bpm", "contact \(m.contact.rawValue.replacingOccurrences(of: "_", with: " "))"]
        if let energy = m.energyExpended { parts.append("energy \(energy) kJ") }
        if !m.rrIntervals.isEmpty {
            parts.append("RR " + m.rrMilliseconds.map { "\(TextFormat.format($0, 1)) ms" }.joined(separator: ", "))
        }
        if m.trailingBytes > 0 {
            parts.append("\(m.trailingBytes) trailing byte\(m.trailingBytes == 1 ? "" : "s") ignored")
        }
        return parts.joined(separator: "; ")
    }
}

/// `decode-hrm --json`.
private struct HRMJSON: Encodable {
    var bpm: Int
    var contact: String
    var energy_kj: Int?
    var rr_ms: [Double]
    var rr_raw: [UInt16]
    var trailing_bytes: Int

    init(_ m: HeartRateMeasurement) {
        bpm = m.bpm
        contact = m.contact.rawValue
        energy_kj = m.energyExpended
        rr_ms = m.rrMilliseconds
        rr_raw = m.rrIntervals
        trailing_bytes = m.trailingBytes
    }

    func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(bpm, forKey: .bpm)
        try container.encode(contact, forKey: .contact)
        // Explicit null: "no energy field" is information, not an omission.
        try container.encode(energy_kj, forKey: .energy_kj)
        try container.encode(rr_ms, forKey: .rr_ms)
        try container.encode(rr_raw, forKey: .rr_raw)
        try container.encode(trailing_bytes, forKey: .trailing_bytes)
    }

    enum Keys: String, CodingKey { case bpm, contact, energy_kj, rr_ms, rr_raw, trailing_bytes }
}
