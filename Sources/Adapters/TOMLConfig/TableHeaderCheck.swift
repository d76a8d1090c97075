/// A table header that names no key (`[)`, `[[ =]]`): toml++ 3 (inside TOMLKit) asserts on it in
/// `parse_key` and aborts the process, release builds too, so it is found here first and becomes
/// a syntax error. A scan of the text that knows strings, comments and brackets inside values, so
/// that an array element on a line of its own is not taken for a header. Found by `scripts/rigs/fuzz.sh
/// config`.
enum TableHeaderCheck {
    /// Where (line, column, from 1) the first header without a key begins its key, or nil.
    static func firstHeaderWithoutKey(in text: String) -> (line: Int, column: Int)? {
        let bytes = Array(text.utf8)
        // toml++ skips a byte-order mark, so the line it starts is still a line's start.
        var i = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        var line = 1
        var lineStart = 0
        var depth = 0  // open brackets and braces of values
        var startOfLine = true
        while i < bytes.count {
            let byte = bytes[i]
            switch byte {
            case UInt8(ascii: "\n"):
                line += 1
                lineStart = i + 1
                startOfLine = true
                i += 1
                continue
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
                i += 1
                continue
            case UInt8(ascii: "#"):
                while i < bytes.count, bytes[i] != UInt8(ascii: "\n") { i += 1 }
                continue
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                let end = endOfString(bytes, at: i, line: &line, lineStart: &lineStart)
                startOfLine = false
                i = end
                continue
            case UInt8(ascii: "[") where startOfLine && depth == 0:
                var j = i + 1
                if j < bytes.count, bytes[j] == UInt8(ascii: "[") { j += 1 }
                while j < bytes.count, bytes[j] == UInt8(ascii: " ") || bytes[j] == UInt8(ascii: "\t") { j += 1 }
                guard j < bytes.count, startsKey(bytes[j]) else { return (line, j - lineStart + 1) }
                startOfLine = false
                i = j
                continue
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                depth = max(0, depth - 1)
            default:
                break
            }
            startOfLine = false
            i += 1
        }
        return nil
    }

    /// A bare key's characters, or a quoted key's opening quote.
    private static func startsKey(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "\""),
            UInt8(ascii: "'"):
            true
        default: false
        }
    }

    /// The index just past the string that opens at `start` (basic or literal, one line or three
    /// quotes), counting the lines it spans; an unclosed one runs to its line's end (or the text's).
    private static func endOfString(_ bytes: [UInt8], at start: Int, line: inout Int, lineStart: inout Int) -> Int {
        let quote = bytes[start]
        let basic = quote == UInt8(ascii: "\"")
        let triple = start + 2 < bytes.count && bytes[start + 1] == quote && bytes[start + 2] == quote
        var i = start + (triple ? 3 : 1)
        while i < bytes.count {
            let byte = bytes[i]
            if basic, byte == UInt8(ascii: "\\") {
                i += 2
                continue
            }
            if byte == UInt8(ascii: "\n") {
                guard triple else { return i }
                line += 1
                lineStart = i + 1
            }
            if byte == quote {
                if !triple { return i + 1 }
                if i + 2 < bytes.count, bytes[i + 1] == quote, bytes[i + 2] == quote {
                    // Up to two more quotes may close with it (`""""` ends in a quote).
                    var end = i + 3
                    while end < bytes.count, end < i + 5, bytes[end] == quote { end += 1 }
                    return end
                }
            }
            i += 1
        }
        return i
    }
}
