import SpeedSensors
import Testing

@Suite struct TreadmillDataTests {
    /// A treadmill at 10.00 km/h, 1234 m, 1.5 % and 50 s: flags 0x040C (distance, inclination, elapsed time).
    @Test func aTypicalTreadmill() throws {
        let data = try TreadmillData(payload: [
            0x0C, 0x04, 0xE8, 0x03, 0xD2, 0x04, 0x00, 0x0F, 0x00, 0x00, 0x00, 0x32, 0x00,
        ])
        #expect(data.speed == 10)
        #expect(data.totalDistance == 1234)
        #expect(data.inclination == 1.5)
        #expect(data.rampAngle == 0)
        #expect(data.elapsedTime == 50)
        #expect(data.averageSpeed == nil && data.heartRate == nil && data.trailingBytes == 0)
    }

    @Test func moreDataMeansNoSpeed() throws {
        let data = try TreadmillData(payload: [0x05, 0x00, 0x10, 0x00, 0x00])
        #expect(data.speed == nil)
        #expect(data.totalDistance == 16)
    }

    /// The fields in the order the flags name them, with the values each decodes to.
    static let fields: [(bytes: [UInt8], check: @Sendable (TreadmillData) -> Bool)] = [
        ([0xE8, 0x03], { $0.speed == 10 }),  // bit 0 clear: instantaneous speed
        ([0x84, 0x03], { $0.averageSpeed == 9 }),
        ([0x40, 0xE2, 0x01], { $0.totalDistance == 123_456 }),
        ([0xF6, 0xFF, 0x14, 0x00], { $0.inclination == -1 && $0.rampAngle == 2 }),
        ([0x0A, 0x00, 0x05, 0x00], { $0.elevationGain?.up == 1 && $0.elevationGain?.down == 0.5 }),
        ([0x32], { $0.pace == 5 }),
        ([0x30], { $0.averagePace == 4.8 }),
        (
            [0x2C, 0x01, 0x58, 0x02, 0x0A],
            { $0.energy?.total == 300 && $0.energy?.perHour == 600 && $0.energy?.perMinute == 10 }
        ),
        ([0x96], { $0.heartRate == 150 }),
        ([0x5A], { $0.metabolicEquivalent == 9 }),
        ([0x10, 0x0E], { $0.elapsedTime == 3600 }),
        ([0x2C, 0x01], { $0.remainingTime == 300 }),
        ([0x64, 0x00, 0xFA, 0x00], { $0.forceAndPower?.force == 100 && $0.forceAndPower?.power == 250 }),
    ]

    /// All 8192 combinations of the 13 flags, and every shorter prefix of each refused.
    @Test func everyFlagCombinationAndEveryTruncation() throws {
        var truncations = 0
        for present in 0..<(1 << 13) {
            var flags = UInt16(present) ^ 1  // bit 0 is inverted: set means the speed is absent
            flags &= 0x1FFF
            var bytes: [UInt8] = [UInt8(flags & 0xFF), UInt8(flags >> 8)]
            for (bit, field) in Self.fields.enumerated() where present & (1 << bit) != 0 { bytes += field.bytes }
            let data = try TreadmillData(payload: bytes)
            for (bit, field) in Self.fields.enumerated() {
                let isThere = present & (1 << bit) != 0
                // The check's result first: Swift 6.2.3's IRGen (Debian's arm64 build) asserts on
                // #expect's expansion of a call through a closure stored in a tuple.
                let holds = !isThere || field.check(data)
                #expect(holds, "flags \(flags): field \(bit)")
            }
            #expect((data.speed != nil) == (present & 1 != 0))
            #expect((data.heartRate != nil) == (present & (1 << 8) != 0))
            #expect(data.trailingBytes == 0)
            for cut in 1..<bytes.count {
                do {
                    _ = try TreadmillData(payload: bytes.prefix(cut))
                    Issue.record("flags \(flags): a prefix of \(cut) of \(bytes.count) bytes was accepted")
                } catch {
                    guard case .truncated(_, _, _, let length) = error, length == cut else {
                        Issue.record("flags \(flags): \(error)")
                        continue
                    }
                    truncations += 1
                }
            }
        }
        #expect(truncations > 100_000)
    }

    @Test func statusAndFeature() throws {
        #expect(try FitnessMachineStatus(payload: [0x02, 0x02]) == .pausedByUser)
        #expect(try FitnessMachineStatus(payload: [0x02, 0x01]) == .stoppedByUser)
        #expect(try FitnessMachineStatus(payload: [0x04]) == .startedOrResumed)
        #expect(try FitnessMachineStatus(payload: [0x05, 0xB0, 0x04]) == .targetSpeedChanged(12))
        #expect(try FitnessMachineStatus(payload: [0x06, 0xEC, 0xFF]) == .targetInclineChanged(-2))
        #expect(try FitnessMachineStatus(payload: [0x12, 0x01, 0x02]) == .other(opcode: 0x12, parameters: [1, 2]))
        #expect(throws: SpeedPayloadError.truncated(field: "target speed", needed: 2, offset: 1, length: 2)) {
            try FitnessMachineStatus(payload: [0x05, 0xB0])
        }
        let feature = try FitnessMachineFeature(payload: [0x05, 0x14, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00])
        #expect(feature.contains(.averageSpeed) && feature.contains(.totalDistance) && feature.contains(.heartRate))
        #expect(feature.contains(.elapsedTime) && !feature.contains(.cadence))
    }
}
