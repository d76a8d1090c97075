/// One Running Speed and Cadence Measurement notification (GATT characteristic 0x2A53, service
/// 0x1814), decoded as the Bluetooth SIG lays it out: flags (bit 0 stride length present, bit 1
/// total distance present, bit 2 running rather than walking), instantaneous speed (uint16, 1/256
/// m/s), cadence (uint8, steps per minute), stride length (uint16, cm), total distance (uint32,
/// dm). Bytes after the last field are counted, never read.
public struct RSCMeasurement: Sendable, Equatable {
    public enum Gait: String, Sendable, Equatable {
        case walking, running
    }

    /// Metres per second.
    public var speed: Double
    /// Steps per minute.
    public var cadence: Int
    /// Metres, when the footpod measures it.
    public var strideLength: Double?
    /// Metres since the footpod's cumulative value was last set, when it counts it.
    public var totalDistance: Double?
    /// Only meaningful when the footpod's feature says it reports it.
    public var gait: Gait
    public var trailingBytes: Int

    public init(
        speed: Double,
        cadence: Int,
        strideLength: Double? = nil,
        totalDistance: Double? = nil,
        gait: Gait = .walking,
        trailingBytes: Int = 0
    ) {
        self.speed = speed
        self.cadence = cadence
        self.strideLength = strideLength
        self.totalDistance = totalDistance
        self.gait = gait
        self.trailingBytes = trailingBytes
    }

    public init(payload: some Collection<UInt8>) throws(SpeedPayloadError) {
        var reader = PayloadReader(payload)
        guard reader.remaining > 0 else { throw .empty }
        let flags = try reader.unsigned(1, "flags")
        speed = Double(try reader.unsigned(2, "instantaneous speed")) / 256
        cadence = Int(try reader.unsigned(1, "instantaneous cadence"))
        strideLength = flags & 0x01 != 0 ? Double(try reader.unsigned(2, "stride length")) / 100 : nil
        totalDistance = flags & 0x02 != 0 ? Double(try reader.unsigned(4, "total distance")) / 10 : nil
        gait = flags & 0x04 != 0 ? .running : .walking
        trailingBytes = reader.remaining
    }
}
