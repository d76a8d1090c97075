import ATT
import Harness
import HeartRate
import HexCoding
import Testing

@Suite("ATT PDUs")
struct ATTPDUTests {
    /// Bytes as a Polar H10 and BlueZ's test-gatt transcripts show them.
    @Test(arguments: [
        ("01 10 01 00 0a", "error"),
        ("03 f7 00", "mtu"),
        ("05 01 0e 00 02 29", "find"),
        ("09 07 0d 00 10 0e 00 37 2a", "readByType"),
        ("0b 01", "read"),
        ("11 06 01 00 07 00 00 18 08 00 0b 00 0d 18", "group"),
        ("13", "write"),
        ("1b 0e 00 16 3c 11 04", "notification"),
    ])
    func decodedPDUsEncodeToTheSameBytes(hex: String, kind: String) throws {
        let bytes = try Hex.decode(hex)
        let pdu = try ATTPDU(decoding: bytes)
        #expect(pdu.encoded == bytes, "\(kind)")
        if case .other = pdu { Issue.record("\(kind) not recognised") }
    }

    @Test func discoveryRecordsCarryHandlesAndUUIDs() throws {
        let group = try ATTPDU(decoding: Hex.decode("11 06 01 00 07 00 00 18 08 00 0b 00 0d 18"))
        guard case .readByGroupTypeResponse(let services) = group else {
            Issue.record("\(group)")
            return
        }
        #expect(services.map(\.handle) == [1, 8] && services.map(\.end) == [7, 11])
        #expect(BluetoothUUID(bytes: services[1].value) == .short(0x180D))
        let longUUID = Array(repeating: UInt8(0xAB), count: 16)
        let find = try ATTPDU(decoding: [0x05, 0x02, 0x10, 0x00] + longUUID)
        guard case .findInformationResponse(let entries) = find else {
            Issue.record("\(find)")
            return
        }
        #expect(entries.first?.uuid == .long(longUUID))
        // The SIG base UUID folds to its 16-bit form.
        let base: [UInt8] = [
            0xFB, 0x34, 0x9B, 0x5F, 0x80, 0x00, 0x00, 0x80, 0x00, 0x10, 0x00, 0x00, 0x37, 0x2A, 0x00, 0x00,
        ]
        #expect(BluetoothUUID(bytes: base) == .short(0x2A37))
    }

    @Test(arguments: [
        "", "01 10 01", "03 f7", "05 03 0e 00", "05 01 0e 00 02", "09 01 0d 00", "09 07 0d 00 10",
        "11 03 01 00 07", "11 06 01 00 07 00 00", "1b 0e",
    ])
    func malformedPDUsAreErrorsNamingTheOpcode(hex: String) throws {
        let bytes = try Hex.decode(hex)
        #expect(throws: ATTDecodeError.self) { try ATTPDU(decoding: bytes) }
    }

    /// Every prefix of every PDU and random bytes: decoded or refused, never a crash.
    @Test func truncatedAndRandomPDUsNeverCrash() throws {
        var random = SplitMix(seed: 99)
        for _ in 0..<50_000 {
            let count = Int(random.uniform() * 30)
            var bytes = (0..<count).map { _ in UInt8(random.uniform() * 256) }
            if let first = bytes.first {
                bytes[0] = [0x01, 0x03, 0x05, 0x09, 0x0B, 0x11, 0x13, 0x1B, 0x1D, first][Int(first) % 10]
            }
            if let pdu = try? ATTPDU(decoding: bytes) { #expect(pdu.encoded.count <= max(bytes.count, 2)) }
        }
    }
}
