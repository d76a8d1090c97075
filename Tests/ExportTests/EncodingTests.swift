import FITFormat
import Foundation
import Testing
import UTCFormat

@testable import Export

/// The pieces an exporter is built from, against independent references.
@Suite("Export encodings")
struct EncodingTests {
    @Test func utcTimesMatchFoundationsFormatter() {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        for seconds in [0, 951_782_400.25, 1_749_882_660, 1_749_882_660.5, 4_102_444_799.999, 1_709_164_800.125] {
            let ours = UTCTime.text(seconds)
            var theirs = formatter.string(from: Date(timeIntervalSince1970: seconds))
            if theirs.hasSuffix(".000Z") { theirs = String(theirs.dropLast(5)) + "Z" }
            #expect(ours == theirs, "\(seconds)")
        }
    }

    @Test func theFITCRCOfAKnownHeader() {
        // The CRC-16 FIT uses is CRC-16/ARC (poly 0x8005 reflected): its check value for "123456789".
        var crc = FITCRC()
        crc.add(Array("123456789".utf8))
        #expect(crc.value == 0xBB3D)
    }

    @Test func fitFieldsAreLittleEndianWithInvalidForMissing() {
        let bytes = FIT.record.data([
            FIT.time(631_065_600 + 1), FIT.semicircles(-0.5), FIT.semicircles(45), 12_345, nil, 3_500, nil,
        ])
        #expect(bytes[0] == FIT.record.local)
        #expect(Array(bytes[1...4]) == [1, 0, 0, 0])
        // -0.5 degrees is -5 965 232 semicircles (0xFFA4_FA50).
        #expect(Array(bytes[5...8]) == [0x50, 0xFA, 0xA4, 0xFF])
        #expect(Array(bytes[9...12]) == [0x00, 0x00, 0x00, 0x20])
        #expect(bytes[17] == 0xFF, "no heart rate: uint8's invalid")
        #expect(Array(bytes[22...25]) == [0xFF, 0xFF, 0xFF, 0xFF], "no altitude: uint32's invalid")
        #expect(bytes[26] == 0xFF, "no cadence: uint8's invalid")
        #expect(bytes.count == 1 + 4 + 4 + 4 + 4 + 1 + 4 + 4 + 1)
    }

    @Test func decimalsHaveNoExponentAndNoTrailingZeros() {
        #expect(Decimals.text(51.5077458, 7) == "51.5077458")
        #expect(Decimals.text(-0.0000001, 7) == "-0.0000001")
        #expect(Decimals.text(1e-9, 7) == "0")
        #expect(Decimals.text(5843.66, 2) == "5843.66")
        #expect(Decimals.text(120, 3) == "120")
    }
}
