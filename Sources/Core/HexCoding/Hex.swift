/// Hex text as field tools and captures write it: "16 3c f5 03", "163cf503", "0x16,0x3c".
public enum Hex {
    public struct DecodeError: Error, Sendable, Equatable, CustomStringConvertible {
        public var description: String
    }

    public static func decode(_ text: String) throws(DecodeError) -> [UInt8] {
        var digits: [UInt8] = []
        var index = text.utf8.startIndex
        let utf8 = text.utf8
        while index < utf8.endIndex {
            let byte = utf8[index]
            let next = utf8.index(after: index)
            if byte == UInt8(ascii: "0"), next < utf8.endIndex, utf8[next] | 0x20 == UInt8(ascii: "x") {
                index = utf8.index(after: next)
                continue
            }
            if let value = nibble(byte) {
                digits.append(value)
            } else if !(byte == 0x20 || byte == 0x2C || byte == 0x3A || byte == 0x2D || byte == 0x09) {
                throw DecodeError(
                    description:
                        "not hex: \"\(Character(Unicode.Scalar(byte)))\" at position \(utf8.distance(from: utf8.startIndex, to: index))"
                )
            }
            index = next
        }
        guard digits.count.isMultiple(of: 2) else {
            throw DecodeError(description: "odd number of hex digits (\(digits.count)): half a byte")
        }
        return stride(from: 0, to: digits.count, by: 2).map { digits[$0] << 4 | digits[$0 + 1] }
    }

    /// Lower-case hex, two digits a byte, no separators (as the log and strap-sent.jsonl keep payloads).
    public static func encode(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        for byte in bytes { out += [digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]] }
        return String(decoding: out, as: UTF8.self)
    }

    private static func nibble(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
