/// A Fitness Machine Status notification (GATT characteristic 0x2ADA): what the machine did by
/// itself or by the user's hand. Read only: the daemon never drives the machine unless asked.
public enum FitnessMachineStatus: Sendable, Equatable {
    case reset
    case stoppedByUser
    case pausedByUser
    case stoppedBySafetyKey
    case startedOrResumed
    /// km/h, resolution 0.01.
    case targetSpeedChanged(Double)
    /// Percent, resolution 0.1.
    case targetInclineChanged(Double)
    case controlPermissionLost
    /// Another status the daemon does not act on: its opcode and parameters.
    case other(opcode: UInt8, parameters: [UInt8])

    public init(payload: some Collection<UInt8>) throws(SpeedPayloadError) {
        var reader = PayloadReader(payload)
        guard reader.remaining > 0 else { throw .empty }
        let opcode = UInt8(try reader.unsigned(1, "status opcode"))
        switch opcode {
        case 0x01: self = .reset
        case 0x02:
            self = try reader.unsigned(1, "stop or pause") == 0x02 ? .pausedByUser : .stoppedByUser
        case 0x03: self = .stoppedBySafetyKey
        case 0x04: self = .startedOrResumed
        case 0x05: self = .targetSpeedChanged(Double(try reader.unsigned(2, "target speed")) / 100)
        case 0x06: self = .targetInclineChanged(Double(try reader.signed16("target inclination")) / 10)
        case 0xFF: self = .controlPermissionLost
        default: self = .other(opcode: opcode, parameters: Array(reader.bytes.dropFirst(reader.offset)))
        }
    }
}
