/// An event's `detail` column: a flat JSON object with its keys in byte order, written by hand.
///
/// `JSONSerialization` with sorted keys compares them through `Locale`, so every logged event paged
/// in ICU's data; the format is the one it wrote, byte for byte (StoredFormatTests holds it).
enum DetailJSON {
    static func text(_ detail: [String: StoredValue]) -> String {
        var out = "{"
        var first = true
        for key in detail.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            let value: String
            switch detail[key]! {
            case .number(let number):
                guard let text = self.number(number) else { continue }
                value = text
            case .text(let text):
                value = quoted(text)
            }
            if !first { out += "," }
            first = false
            out += quoted(key) + ":" + value
        }
        return out + "}"
    }

    /// Whole numbers without a fraction (as JSONSerialization wrote them), others in Swift's
    /// shortest form that reads back exactly; NaN and infinities are left out, JSON has none.
    static func number(_ number: Double) -> String? {
        guard number.isFinite else { return nil }
        if number == number.rounded(), abs(number) < 9_007_199_254_740_992 {
            return String(Int64(number))
        }
        return "\(number)"
    }

    /// A JSON string: quotes, backslashes and control characters escaped; slashes and non-ASCII as they are.
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            case let control where control.value < 0x20:
                let hex = String(control.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
