/// Why a footpod's or a treadmill's payload was not a sample: what was wrong and where, with the
/// bytes kept by the caller for the log.
public enum SpeedPayloadError: Error, Equatable, CustomStringConvertible {
    case empty
    /// `field` needed `needed` bytes at `offset`; the payload had `length`.
    case truncated(field: String, needed: Int, offset: Int, length: Int)
    /// A control point's answer that is not a response (its first byte is `opcode`).
    case notAResponse(opcode: UInt8)

    public var description: String {
        switch self {
        case .empty: "an empty payload"
        case .truncated(let field, let needed, let offset, let length):
            "truncated: \(field) needs \(needed) bytes at offset \(offset), the payload has \(length)"
        case .notAResponse(let opcode): "not a control point response (opcode 0x\(String(opcode, radix: 16)))"
        }
    }
}
