/// What a footpod says it can do (GATT characteristic 0x2A54): read once at connection, so that an
/// absent field is known to be unsupported rather than missing.
public struct RSCFeature: OptionSet, Sendable, Equatable {
    public let rawValue: UInt16

    public init(rawValue: UInt16) {
        self.rawValue = rawValue
    }

    public static let strideLength = RSCFeature(rawValue: 1 << 0)
    public static let totalDistance = RSCFeature(rawValue: 1 << 1)
    public static let walkingOrRunning = RSCFeature(rawValue: 1 << 2)
    public static let calibration = RSCFeature(rawValue: 1 << 3)
    public static let multipleLocations = RSCFeature(rawValue: 1 << 4)

    public init(payload: some Collection<UInt8>) throws(SpeedPayloadError) {
        var reader = PayloadReader(payload)
        guard reader.remaining > 0 else { throw .empty }
        rawValue = UInt16(try reader.unsigned(2, "RSC feature"))
    }
}
