/// The FIT protocol's CRC-16 (its own nibble table), over a header or a whole file.
public struct FITCRC: Sendable {
    private static let table: [UInt16] = [
        0x0000, 0xCC01, 0xD801, 0x1400, 0xF001, 0x3C00, 0x2800, 0xE401,
        0xA001, 0x6C00, 0x7800, 0xB401, 0x5000, 0x9C01, 0x8801, 0x4400,
    ]
    public private(set) var value: UInt16 = 0

    public init() {}

    public mutating func add(_ byte: UInt8) {
        var tmp = Self.table[Int(value & 0xF)]
        value = (value >> 4) & 0x0FFF
        value = value ^ tmp ^ Self.table[Int(byte & 0xF)]
        tmp = Self.table[Int(value & 0xF)]
        value = (value >> 4) & 0x0FFF
        value = value ^ tmp ^ Self.table[Int((byte >> 4) & 0xF)]
    }

    public mutating func add(_ bytes: some Sequence<UInt8>) {
        for byte in bytes { add(byte) }
    }
}
