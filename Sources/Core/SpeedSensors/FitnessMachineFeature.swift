/// What a fitness machine says it measures (GATT characteristic 0x2ACC, its first 32-bit field;
/// the second, the target settings, is not read: the daemon sets no targets).
public struct FitnessMachineFeature: OptionSet, Sendable, Equatable {
    public let rawValue: UInt32

    public init(rawValue: UInt32) {
        self.rawValue = rawValue
    }

    public static let averageSpeed = FitnessMachineFeature(rawValue: 1 << 0)
    public static let cadence = FitnessMachineFeature(rawValue: 1 << 1)
    public static let totalDistance = FitnessMachineFeature(rawValue: 1 << 2)
    public static let inclination = FitnessMachineFeature(rawValue: 1 << 3)
    public static let elevationGain = FitnessMachineFeature(rawValue: 1 << 4)
    public static let pace = FitnessMachineFeature(rawValue: 1 << 5)
    public static let stepCount = FitnessMachineFeature(rawValue: 1 << 6)
    public static let heartRate = FitnessMachineFeature(rawValue: 1 << 10)
    public static let elapsedTime = FitnessMachineFeature(rawValue: 1 << 12)

    public init(payload: some Collection<UInt8>) throws(SpeedPayloadError) {
        var reader = PayloadReader(payload)
        guard reader.remaining > 0 else { throw .empty }
        rawValue = try reader.unsigned(4, "fitness machine features")
    }
}
