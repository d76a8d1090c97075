import SpeedSensors
import Testing

@Suite struct RSCMeasurementTests {
    @Test func aRunningFootpodWithEveryField() throws {
        // 3.0 m/s, 180 steps/min, 1.00 m stride, 1000.0 m, running.
        let m = try RSCMeasurement(payload: [0x07, 0x00, 0x03, 0xB4, 0x64, 0x00, 0x10, 0x27, 0x00, 0x00])
        #expect(m == RSCMeasurement(speed: 3, cadence: 180, strideLength: 1, totalDistance: 1000, gait: .running))
    }

    @Test func theFewestFieldsAWalker() throws {
        let m = try RSCMeasurement(payload: [0x00, 0x80, 0x01, 0x6E])
        #expect(m == RSCMeasurement(speed: 1.5, cadence: 110))
    }

    /// Every combination of the three flags, each decoded from bytes made field by field, and every
    /// shorter prefix of it refused with the field it cut.
    @Test(arguments: 0..<8)
    func everyFlagCombinationAndEveryTruncation(flags: Int) throws {
        var bytes: [UInt8] = [UInt8(flags), 0x9A, 0x02, 0xAA]  // 666/256 m/s, 170 spm
        if flags & 1 != 0 { bytes += [0x7D, 0x00] }  // 1.25 m
        if flags & 2 != 0 { bytes += [0x39, 0x30, 0x00, 0x00] }  // 1234.5 m
        let m = try RSCMeasurement(payload: bytes)
        #expect(m.speed == 666.0 / 256)
        #expect(m.cadence == 170)
        #expect(m.strideLength == (flags & 1 != 0 ? 1.25 : nil))
        #expect(m.totalDistance == (flags & 2 != 0 ? 1234.5 : nil))
        #expect(m.gait == (flags & 4 != 0 ? .running : .walking))
        #expect(m.trailingBytes == 0)
        #expect(throws: SpeedPayloadError.empty) { try RSCMeasurement(payload: []) }
        for cut in 1..<bytes.count {
            #expect {
                try RSCMeasurement(payload: bytes.prefix(cut))
            } throws: { error in
                guard case .truncated(_, _, let offset, let length)? = error as? SpeedPayloadError else { return false }
                return length == cut && offset <= cut
            }
        }
    }

    @Test func bytesAfterTheLastFieldAreCountedNotRead() throws {
        #expect(try RSCMeasurement(payload: [0x00, 0x00, 0x01, 0x50, 0xEE]).trailingBytes == 1)
    }

    @Test func theTruncationSaysWhatWasCut() {
        #expect(throws: SpeedPayloadError.truncated(field: "total distance", needed: 4, offset: 4, length: 6)) {
            try RSCMeasurement(payload: [0x02, 0x00, 0x01, 0x50, 0x01, 0x02])
        }
    }
}

@Suite struct SCControlPointTests {
    @Test func requestsAreWrittenAsTheSpecificationLaysThemOut() {
        #expect(SCControlPoint.Request.setCumulativeValue(metres: 0).payload == [0x01, 0, 0, 0, 0])
        #expect(SCControlPoint.Request.setCumulativeValue(metres: 1234.5).payload == [0x01, 0x39, 0x30, 0, 0])
        #expect(SCControlPoint.Request.startCalibration.payload == [0x02])
        #expect(SCControlPoint.Request.updateSensorLocation(7).payload == [0x03, 7])
        #expect(SCControlPoint.Request.requestSupportedLocations.payload == [0x04])
    }

    @Test func responses() throws {
        #expect(try SCControlPoint.Response(payload: [0x10, 0x01, 0x01]) == .init(requestOpcode: 1, result: .success))
        #expect(
            try SCControlPoint.Response(payload: [0x10, 0x02, 0x02])
                == .init(requestOpcode: 2, result: .opcodeNotSupported)
        )
        #expect(
            try SCControlPoint.Response(payload: [0x10, 0x04, 0x01, 0x01, 0x07, 0x0D])
                == .init(requestOpcode: 4, result: .success, locations: [1, 7, 13])
        )
        #expect(try SCControlPoint.Response(payload: [0x10, 0x03, 0x09]).result == .other(9))
        #expect(throws: SpeedPayloadError.notAResponse(opcode: 0x01)) { try SCControlPoint.Response(payload: [0x01]) }
        #expect(throws: SpeedPayloadError.truncated(field: "response value", needed: 1, offset: 2, length: 2)) {
            try SCControlPoint.Response(payload: [0x10, 0x01])
        }
    }

    @Test func features() throws {
        let feature = try RSCFeature(payload: [0x1B, 0x00])
        #expect(feature == [.strideLength, .totalDistance, .calibration, .multipleLocations])
        #expect(throws: SpeedPayloadError.truncated(field: "RSC feature", needed: 2, offset: 0, length: 1)) {
            try RSCFeature(payload: [0x03])
        }
    }
}
