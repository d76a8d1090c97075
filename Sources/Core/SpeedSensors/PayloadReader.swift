/// Reads a GATT payload's little-endian fields in order, naming the field that is cut short: a
/// truncated notification is an error that says what was missing and where, never a value.
struct PayloadReader {
    let bytes: [UInt8]
    private(set) var offset = 0

    init(_ bytes: some Collection<UInt8>) {
        self.bytes = Array(bytes)
    }

    var remaining: Int { bytes.count - offset }

    mutating func unsigned(_ width: Int, _ field: String) throws(SpeedPayloadError) -> UInt32 {
        guard remaining >= width else {
            throw .truncated(field: field, needed: width, offset: offset, length: bytes.count)
        }
        var value: UInt32 = 0
        for index in 0..<width { value |= UInt32(bytes[offset + index]) << (8 * index) }
        offset += width
        return value
    }

    mutating func signed16(_ field: String) throws(SpeedPayloadError) -> Int16 {
        Int16(bitPattern: UInt16(try unsigned(2, field)))
    }
}
