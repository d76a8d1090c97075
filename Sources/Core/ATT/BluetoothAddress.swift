/// A device address as printed ("F1:F1:F1:F1:F1:F1", most significant byte first) and its LE type.
///
/// The type matters to the kernel: connecting to a random address as public (or back) fails.
public struct BluetoothAddress: Sendable, Hashable, CustomStringConvertible {
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        case `public`
        case random
    }

    /// Bytes in printed order, most significant first.
    public var bytes: [UInt8]
    public var kind: Kind

    public init?(_ text: String, kind: Kind) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 6 else { return nil }
        var bytes: [UInt8] = []
        for part in parts {
            guard part.count == 2, let byte = UInt8(part, radix: 16) else { return nil }
            bytes.append(byte)
        }
        self.bytes = bytes
        self.kind = kind
    }

    /// From the wire (and `bdaddr_t`): least significant byte first.
    public init(littleEndian: some Collection<UInt8>, kind: Kind) {
        precondition(littleEndian.count == 6)
        bytes = littleEndian.reversed()
        self.kind = kind
    }

    public var littleEndian: [UInt8] { bytes.reversed() }

    public var text: String {
        bytes.map { byte in
            let digits = String(byte, radix: 16, uppercase: true)
            return digits.count == 1 ? "0" + digits : digits
        }.joined(separator: ":")
    }

    public var description: String { "\(text) (\(kind.rawValue))" }
}
