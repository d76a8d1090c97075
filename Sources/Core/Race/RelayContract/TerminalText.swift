/// Text that came from someone else (a fellow runner's cancel reason, an event's body) made safe to
/// print: control characters, which a terminal would obey (escape sequences that recolour, move
/// the cursor, retitle the window or clear the screen), are written out as `\u001B` instead (which
/// a JSON string also reads back as the same character), and so are the bidirectional overrides
/// that make text read other than it is stored.
public enum TerminalText {
    /// `text` with every control character (but newline and tab when `keepingLines`) escaped.
    public static func escaped(_ text: String, keepingLines: Bool = false) -> String {
        guard text.unicodeScalars.contains(where: { unsafe($0, keepingLines: keepingLines) }) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            if unsafe(scalar, keepingLines: keepingLines) {
                let hex = String(scalar.value, radix: 16, uppercase: true)
                out += "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// `text` with every control character replaced by a space: what the relay takes as a reason.
    public static func printable(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { unsafe($0, keepingLines: false) ? " " : $0 }))
    }

    static func unsafe(_ scalar: Unicode.Scalar, keepingLines: Bool) -> Bool {
        switch scalar.value {
        case 0x0A, 0x09: !keepingLines
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}
