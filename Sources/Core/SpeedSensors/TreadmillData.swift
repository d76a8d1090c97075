/// One Treadmill Data notification (GATT characteristic 0x2ACD, Fitness Machine service 0x1826),
/// decoded as the Bluetooth SIG's characteristic definition (2017) lays it out: a 16-bit flags field
/// whose bit 0 ("more data") is inverted (clear: the instantaneous speed is present), then each
/// optional field in order. A machine may split one record over several notifications; each is
/// decoded on its own and carries only what it holds.
public struct TreadmillData: Sendable, Equatable {
    /// km/h, resolution 0.01 (absent when "more data" is set).
    public var speed: Double?
    public var averageSpeed: Double?
    /// Metres since the machine's workout began (uint24).
    public var totalDistance: Int?
    /// Percent grade, resolution 0.1.
    public var inclination: Double?
    /// Degrees, resolution 0.1.
    public var rampAngle: Double?
    /// Metres up and down, resolution 0.1.
    public var elevationGain: (up: Double, down: Double)?
    /// km per minute, resolution 0.1 (uint8, as the 2017 definition has it).
    public var pace: Double?
    public var averagePace: Double?
    /// Total kcal, kcal per hour, kcal per minute.
    public var energy: (total: Int, perHour: Int, perMinute: Int)?
    public var heartRate: Int?
    /// Metabolic equivalent, resolution 0.1.
    public var metabolicEquivalent: Double?
    /// Seconds.
    public var elapsedTime: Int?
    public var remainingTime: Int?
    /// Newtons and watts.
    public var forceAndPower: (force: Int, power: Int)?
    public var trailingBytes: Int

    public static func == (left: TreadmillData, right: TreadmillData) -> Bool {
        left.speed == right.speed && left.averageSpeed == right.averageSpeed
            && left.totalDistance == right.totalDistance && left.inclination == right.inclination
            && left.rampAngle == right.rampAngle && left.elevationGain?.up == right.elevationGain?.up
            && left.elevationGain?.down == right.elevationGain?.down && left.pace == right.pace
            && left.averagePace == right.averagePace && left.energy?.total == right.energy?.total
            && left.energy?.perHour == right.energy?.perHour && left.energy?.perMinute == right.energy?.perMinute
            && left.heartRate == right.heartRate && left.metabolicEquivalent == right.metabolicEquivalent
            && left.elapsedTime == right.elapsedTime && left.remainingTime == right.remainingTime
            && left.forceAndPower?.force == right.forceAndPower?.force
            && left.forceAndPower?.power == right.forceAndPower?.power && left.trailingBytes == right.trailingBytes
    }

    public init() {
        trailingBytes = 0
    }

    public init(payload: some Collection<UInt8>) throws(SpeedPayloadError) {
        var reader = PayloadReader(payload)
        guard reader.remaining > 0 else { throw .empty }
        let flags = try reader.unsigned(2, "flags")
        func has(_ bit: UInt32) -> Bool { flags & (1 << bit) != 0 }
        self.init()
        if !has(0) { speed = Double(try reader.unsigned(2, "instantaneous speed")) / 100 }
        if has(1) { averageSpeed = Double(try reader.unsigned(2, "average speed")) / 100 }
        if has(2) { totalDistance = Int(try reader.unsigned(3, "total distance")) }
        if has(3) {
            inclination = Double(try reader.signed16("inclination")) / 10
            rampAngle = Double(try reader.signed16("ramp angle setting")) / 10
        }
        if has(4) {
            let up = Double(try reader.unsigned(2, "positive elevation gain")) / 10
            elevationGain = (up, Double(try reader.unsigned(2, "negative elevation gain")) / 10)
        }
        if has(5) { pace = Double(try reader.unsigned(1, "instantaneous pace")) / 10 }
        if has(6) { averagePace = Double(try reader.unsigned(1, "average pace")) / 10 }
        if has(7) {
            let total = Int(try reader.unsigned(2, "total energy"))
            let perHour = Int(try reader.unsigned(2, "energy per hour"))
            energy = (total, perHour, Int(try reader.unsigned(1, "energy per minute")))
        }
        if has(8) { heartRate = Int(try reader.unsigned(1, "heart rate")) }
        if has(9) { metabolicEquivalent = Double(try reader.unsigned(1, "metabolic equivalent")) / 10 }
        if has(10) { elapsedTime = Int(try reader.unsigned(2, "elapsed time")) }
        if has(11) { remainingTime = Int(try reader.unsigned(2, "remaining time")) }
        if has(12) {
            let force = Int(try reader.signed16("force on belt"))
            forceAndPower = (force, Int(try reader.signed16("power output")))
        }
        trailingBytes = reader.remaining
    }
}
