/// A GATT UUID: 16-bit SIG-assigned or full 128-bit, as ATT carries them (little-endian).
public enum BluetoothUUID: Sendable, Hashable, CustomStringConvertible {
    case short(UInt16)
    /// 16 bytes as sent on the wire (little-endian).
    case long([UInt8])

    public static let primaryService = BluetoothUUID.short(0x2800)
    public static let characteristic = BluetoothUUID.short(0x2803)
    public static let clientCharacteristicConfiguration = BluetoothUUID.short(0x2902)

    /// The base UUID 0000xxxx-0000-1000-8000-00805F9B34FB folds to its 16-bit form.
    public init?(bytes: some Collection<UInt8>) {
        let bytes = Array(bytes)
        switch bytes.count {
        case 2: self = .short(UInt16(bytes[0]) | UInt16(bytes[1]) << 8)
        case 16:
            let base: [UInt8] = [0xFB, 0x34, 0x9B, 0x5F, 0x80, 0x00, 0x00, 0x80, 0x00, 0x10, 0x00, 0x00]
            if Array(bytes[0..<12]) == base, bytes[14] == 0, bytes[15] == 0 {
                self = .short(UInt16(bytes[12]) | UInt16(bytes[13]) << 8)
            } else {
                self = .long(bytes)
            }
        default: return nil
        }
    }

    public var bytes: [UInt8] {
        switch self {
        case .short(let value): [UInt8(value & 0xFF), UInt8(value >> 8)]
        case .long(let bytes): bytes
        }
    }

    public var description: String {
        switch self {
        case .short(let value):
            let hex = String(value, radix: 16)
            return "0x" + String(repeating: "0", count: 4 - hex.count) + hex
        case .long(let bytes):
            return bytes.reversed().map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
        }
    }
}
