import Foundation

/// How one channel's value sits in a buffered scan, as the kernel describes it in
/// `scan_elements/in_<channel>_type`: `le:s16/16>>0` is little-endian, signed, 16 bits of value in
/// 16 bits of storage, shifted right by 0 (`[be|le]:[s|u]BITS/STORAGE[Xrepeat][>>SHIFT]`).
public struct IIOChannelType: Sendable, Equatable {
    public var littleEndian: Bool
    public var signed: Bool
    public var bits: Int
    public var storageBits: Int
    public var shift: Int
    public var repeats: Int

    public init(littleEndian: Bool, signed: Bool, bits: Int, storageBits: Int, shift: Int = 0, repeats: Int = 1) {
        self.littleEndian = littleEndian
        self.signed = signed
        self.bits = bits
        self.storageBits = storageBits
        self.shift = shift
        self.repeats = repeats
    }

    /// The kernel's text; nil when it is not one (a storage of other than 8, 16, 32 or 64 bits, a
    /// value wider than its storage).
    public init?(parsing text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let parts = trimmed.split(separator: ":", maxSplits: 1)
        guard parts.count == 2, parts[0] == "le" || parts[0] == "be" else { return nil }
        var rest = Substring(parts[1])
        guard let sign = rest.first, sign == "s" || sign == "u" else { return nil }
        rest = rest.dropFirst()
        var shift = 0
        if let range = rest.range(of: ">>") {
            guard let value = Int(rest[range.upperBound...]), (0..<64).contains(value) else { return nil }
            shift = value
            rest = rest[..<range.lowerBound]
        }
        var repeats = 1
        if let x = rest.firstIndex(of: "X") {
            guard let value = Int(rest[rest.index(after: x)...]), value >= 1 else { return nil }
            repeats = value
            rest = rest[..<x]
        }
        let sizes = rest.split(separator: "/")
        guard sizes.count == 2, let bits = Int(sizes[0]), let storage = Int(sizes[1]),
            [8, 16, 32, 64].contains(storage),
            bits >= 1, bits + shift <= storage
        else { return nil }
        self.init(
            littleEndian: parts[0] == "le",
            signed: sign == "s",
            bits: bits,
            storageBits: storage,
            shift: shift,
            repeats: repeats
        )
    }

    /// Bytes one value takes in a scan (and its alignment there).
    public var storageBytes: Int { storageBits / 8 }

    /// The value at `offset` of `bytes`: its storage read in its byte order, shifted, masked to its
    /// bits and sign-extended.
    public func value(in bytes: [UInt8], at offset: Int) -> Int64 {
        var raw: UInt64 = 0
        for i in 0..<storageBytes {
            let byte = UInt64(bytes[offset + (littleEndian ? storageBytes - 1 - i : i)])
            raw = (raw << 8) | byte
        }
        raw >>= UInt64(shift)
        if bits < 64 { raw &= (UInt64(1) << UInt64(bits)) - 1 }
        guard signed, bits < 64, raw & (UInt64(1) << UInt64(bits - 1)) != 0 else { return Int64(bitPattern: raw) }
        return Int64(bitPattern: raw | ~((UInt64(1) << UInt64(bits)) - 1))
    }
}
