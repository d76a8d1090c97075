/// FIT messages as this exporter writes them: each a global number, a local type, and fields
/// of fixed base types. A definition is written once per local type, before its first data.
struct FITMessage {
    /// FIT base types (the byte the definition carries), with their size and "invalid" value.
    enum BaseType: UInt8 {
        case enumeration = 0x00
        case uint8 = 0x02
        /// UTF-8, null-terminated, one byte a value.
        case string = 0x07
        case uint16 = 0x84
        case sint32 = 0x85
        case uint32 = 0x86
        case uint32z = 0x8C

        var size: Int {
            switch self {
            case .enumeration, .uint8, .string: 1
            case .uint16: 2
            case .sint32, .uint32, .uint32z: 4
            }
        }

        var invalid: UInt64 {
            switch self {
            case .enumeration, .uint8: 0xFF
            case .string: 0
            case .uint16: 0xFFFF
            case .sint32: 0x7FFF_FFFF
            case .uint32: 0xFFFF_FFFF
            case .uint32z: 0
            }
        }
    }

    struct Field {
        var number: UInt8
        var type: BaseType
        /// Values for an array field (hrv's RR times, a string's bytes); 1 otherwise.
        var count: Int = 1
    }

    let global: UInt16
    let local: UInt8
    let fields: [Field]

    var definition: [UInt8] {
        var bytes: [UInt8] = [0x40 | local, 0, 0, UInt8(global & 0xFF), UInt8(global >> 8), UInt8(fields.count)]
        for field in fields {
            bytes += [field.number, UInt8(field.type.size * field.count), field.type.rawValue]
        }
        return bytes
    }

    /// A data message: one value per field (array fields take `count` values), nil for invalid.
    func data(_ values: [UInt64?]) -> [UInt8] {
        var bytes: [UInt8] = [local]
        var index = 0
        for field in fields {
            for _ in 0..<field.count {
                let value = index < values.count ? values[index] ?? field.type.invalid : field.type.invalid
                index += 1
                for shift in 0..<field.type.size {
                    bytes.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(shift))))
                }
            }
        }
        return bytes
    }
}

/// The FIT profile's numbers this exporter uses.
enum FIT {
    /// FIT time: seconds since 1989-12-31T00:00:00Z.
    static func time(_ unix: Double) -> UInt64 { UInt64(max(0, (unix - 631_065_600).rounded(.down))) }
    /// Degrees to semicircles, as a sint32 bit pattern.
    static func semicircles(_ degrees: Double) -> UInt64 {
        UInt64(UInt32(bitPattern: Int32(clamping: Int((degrees * 2_147_483_648 / 180).rounded()))))
    }
    static func scaled(_ value: Double, _ scale: Double) -> UInt64? {
        guard value.isFinite, value >= 0 else { return nil }
        return UInt64(min((value * scale).rounded(), 4_294_967_294))
    }

    static let fileID = FITMessage(
        global: 0,
        local: 0,
        fields: [
            .init(number: 0, type: .enumeration), .init(number: 1, type: .uint16), .init(number: 2, type: .uint16),
            .init(number: 3, type: .uint32z), .init(number: 4, type: .uint32),
        ]
    )
    static let deviceInfo = FITMessage(
        global: 23,
        local: 1,
        fields: [
            .init(number: 253, type: .uint32), .init(number: 0, type: .uint8), .init(number: 2, type: .uint16),
            .init(number: 4, type: .uint16), .init(number: 5, type: .uint16),
        ]
    )
    static let event = FITMessage(
        global: 21,
        local: 2,
        fields: [
            .init(number: 253, type: .uint32), .init(number: 0, type: .enumeration),
            .init(number: 1, type: .enumeration),
        ]
    )
    /// timestamp, position lat/long, distance (m * 100), heart rate, enhanced speed (m/s * 1000),
    /// enhanced altitude ((m + 500) * 5), cadence (rpm: a runner's steps per minute halved, as
    /// Garmin's devices write it).
    static let record = FITMessage(
        global: 20,
        local: 3,
        fields: [
            .init(number: 253, type: .uint32), .init(number: 0, type: .sint32), .init(number: 1, type: .sint32),
            .init(number: 5, type: .uint32), .init(number: 3, type: .uint8), .init(number: 73, type: .uint32),
            .init(number: 78, type: .uint32), .init(number: 4, type: .uint8),
        ]
    )
    /// RR intervals (s * 1000), five to a message.
    static let hrv = FITMessage(global: 78, local: 4, fields: [.init(number: 0, type: .uint16, count: 5)])
    /// timestamp, start time, elapsed and timer time (s * 1000), distance (m * 100), avg and max
    /// heart rate, message index, event (lap), event type (stop), lap trigger, sport, max speed,
    /// total calories (kcal), total cycles (a run's or a walk's strides: steps halved, as cadence is).
    static let lap = FITMessage(
        global: 19,
        local: 5,
        fields: [
            .init(number: 253, type: .uint32), .init(number: 2, type: .uint32), .init(number: 7, type: .uint32),
            .init(number: 8, type: .uint32), .init(number: 9, type: .uint32), .init(number: 15, type: .uint8),
            .init(number: 16, type: .uint8), .init(number: 254, type: .uint16),
            .init(number: 0, type: .enumeration), .init(number: 1, type: .enumeration),
            .init(number: 24, type: .enumeration), .init(number: 25, type: .enumeration),
            .init(number: 111, type: .uint32), .init(number: 11, type: .uint16),
            .init(number: 10, type: .uint32),
        ]
    )
    /// timestamp, start time, elapsed and timer time, distance, sport, avg and max heart rate,
    /// laps, first lap, event (session), event type (stop), message index, enhanced avg and max speed,
    /// sub sport, total ascent and descent (m), total calories (kcal), total cycles (strides).
    static let session = FITMessage(
        global: 18,
        local: 6,
        fields: [
            .init(number: 253, type: .uint32), .init(number: 2, type: .uint32), .init(number: 7, type: .uint32),
            .init(number: 8, type: .uint32), .init(number: 9, type: .uint32), .init(number: 5, type: .enumeration),
            .init(number: 16, type: .uint8), .init(number: 17, type: .uint8), .init(number: 26, type: .uint16),
            .init(number: 25, type: .uint16), .init(number: 0, type: .enumeration),
            .init(number: 1, type: .enumeration), .init(number: 254, type: .uint16),
            .init(number: 124, type: .uint32), .init(number: 125, type: .uint32),
            .init(number: 6, type: .enumeration), .init(number: 22, type: .uint16),
            .init(number: 23, type: .uint16), .init(number: 11, type: .uint16),
            .init(number: 10, type: .uint32),
        ]
    )
    /// timestamp, total timer time, sessions, type (manual), event (activity), event type (stop).
    static let activity = FITMessage(
        global: 34,
        local: 7,
        fields: [
            .init(number: 253, type: .uint32), .init(number: 0, type: .uint32), .init(number: 1, type: .uint16),
            .init(number: 2, type: .enumeration), .init(number: 3, type: .enumeration),
            .init(number: 4, type: .enumeration),
        ]
    )

    /// The course the session followed: sport and name (a string field of the name's UTF-8 bytes,
    /// at most 254 and cut on a character's boundary, with its terminating zero).
    static func course(named name: String) -> (definition: [UInt8], data: (UInt64) -> [UInt8]) {
        var bytes: [UInt8] = []
        for character in name {
            let utf8 = Array(String(character).utf8)
            guard bytes.count + utf8.count <= 254 else { break }
            bytes += utf8
        }
        let message = FITMessage(
            global: 31,
            local: 8,
            fields: [.init(number: 4, type: .enumeration), .init(number: 5, type: .string, count: bytes.count + 1)]
        )
        return (message.definition, { sport in message.data([sport] + bytes.map(UInt64.init) + [0]) })
    }
}
