/// Session ids: random version-4 UUIDs from a seeded SplitMix64, so that the core stays pure (the
/// daemon seeds it from the system's randomness; tests from a number) and no caller patches ids in.
public struct SessionIDGenerator: Sendable {
    private var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> String {
        var bytes =
            withUnsafeBytes(of: nextWord().bigEndian, Array.init)
            + withUnsafeBytes(of: nextWord().bigEndian, Array.init)
        bytes[6] = (bytes[6] & 0x0f) | 0x40  // version 4
        bytes[8] = (bytes[8] & 0x3f) | 0x80  // RFC 4122 variant
        return Self.text(of: bytes)
    }

    /// 16 bytes in a UUID's text form (8-4-4-4-12 lowercase hex): session ids, and the snapshot's
    /// compact session id read back.
    public static func text(of bytes: [UInt8]) -> String {
        precondition(bytes.count == 16)
        let hex = bytes.map { byte in
            let digits = String(byte, radix: 16)
            return digits.count == 1 ? "0" + digits : digits
        }
        return [hex[0..<4], hex[4..<6], hex[6..<8], hex[8..<10], hex[10..<16]].map { $0.joined() }.joined(
            separator: "-"
        )
    }

    private mutating func nextWord() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
