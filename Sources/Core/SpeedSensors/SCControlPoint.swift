/// The SC Control Point (GATT characteristic 0x2A55): requests a footpod may take (written with a
/// response expected by indication) and the response it indicates. The daemon sends none today: a
/// session differences the footpod's own count, so it never needs the count reset.
public enum SCControlPoint {
    public enum Request: Sendable, Equatable {
        /// The footpod's total distance from now on counts from this (metres, sent in dm).
        case setCumulativeValue(metres: Double)
        case startCalibration
        case updateSensorLocation(UInt8)
        case requestSupportedLocations

        public var opcode: UInt8 {
            switch self {
            case .setCumulativeValue: 0x01
            case .startCalibration: 0x02
            case .updateSensorLocation: 0x03
            case .requestSupportedLocations: 0x04
            }
        }

        /// The value written to the control point.
        public var payload: [UInt8] {
            switch self {
            case .setCumulativeValue(let metres):
                let decimetres = UInt32(clamping: Int((max(0, metres) * 10).rounded()))
                return [opcode] + (0..<4).map { UInt8(truncatingIfNeeded: decimetres >> (8 * $0)) }
            case .updateSensorLocation(let location): return [opcode, location]
            case .startCalibration, .requestSupportedLocations: return [opcode]
            }
        }
    }

    /// The footpod's answer to a request.
    public struct Response: Sendable, Equatable {
        public enum Result: Sendable, Equatable {
            case success
            case opcodeNotSupported
            case invalidParameter
            case failed
            case other(UInt8)
        }

        public var requestOpcode: UInt8
        public var result: Result
        /// For a successful "request supported locations": the locations.
        public var locations: [UInt8]

        public init(requestOpcode: UInt8, result: Result, locations: [UInt8] = []) {
            self.requestOpcode = requestOpcode
            self.result = result
            self.locations = locations
        }

        public init(payload: some Collection<UInt8>) throws(SpeedPayloadError) {
            var reader = PayloadReader(payload)
            guard reader.remaining > 0 else { throw .empty }
            let opcode = UInt8(try reader.unsigned(1, "response opcode"))
            guard opcode == 0x10 else { throw .notAResponse(opcode: opcode) }
            requestOpcode = UInt8(try reader.unsigned(1, "request opcode"))
            switch UInt8(try reader.unsigned(1, "response value")) {
            case 0x01: result = .success
            case 0x02: result = .opcodeNotSupported
            case 0x03: result = .invalidParameter
            case 0x04: result = .failed
            case let value: result = .other(value)
            }
            var locations: [UInt8] = []
            if requestOpcode == 0x04, result == .success {
                while reader.remaining > 0 { locations.append(UInt8(try reader.unsigned(1, "sensor location"))) }
            }
            self.locations = locations
        }
    }
}
