/// Why a Heart Rate Measurement payload cannot be decoded; names the field and the byte offset.
public enum HeartRateMeasurementError: Error, Sendable, Equatable, CustomStringConvertible {
    case empty
    /// The heart-rate field needs `needed` bytes at `offset`; the payload has `length`.
    case truncatedHeartRate(needed: Int, offset: Int, length: Int)
    /// The energy-expended flag is set but its two bytes at `offset` are not all there.
    case truncatedEnergy(offset: Int, length: Int)

    public var description: String {
        switch self {
        case .empty:
            "empty payload: not even the flags byte"
        case .truncatedHeartRate(let needed, let offset, let length):
            "heart rate needs \(needed) byte\(needed == 1 ? "" : "s") at offset \(offset) (\(needed == 2 ? "uint16 flag set" : "uint8")), payload has \(length)"
        case .truncatedEnergy(let offset, let length):
            "energy expended flag set but its 2 bytes at offset \(offset) are cut short (payload has \(length))"
        }
    }
}
