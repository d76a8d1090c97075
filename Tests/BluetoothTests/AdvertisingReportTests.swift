import ATT
import Bluetooth
import Harness
import HeartRate
import HexCoding
import Testing

@Suite("LE advertising reports")
struct AdvertisingReportTests {
    /// The Bumble strap's advertising data as btmon showed it in the VM.
    let data = "02 01 06 0b 09 42 75 6d 62 6c 65 20 48 52 4d 03 02 0d 18 03 19 41 03"

    @Test func aLegacyReportNamesTheStrapAndItsService() throws {
        let payload = try Hex.decode(data)
        // 1 report: ADV_IND, random, F1:..:F1 (wire order reversed), data, RSSI -50
        let event = [0x01, 0x00, 0x01] + [UInt8](repeating: 0xF1, count: 6) + [UInt8(payload.count)] + payload + [0xCE]
        let reports = try AdvertisingReport.parse(leAdvertisingReport: event)
        #expect(reports.count == 1)
        let strap = reports[0]
        #expect(strap.address == BluetoothAddress("F1:F1:F1:F1:F1:F1", kind: .random))
        #expect(strap.name == "Bumble HRM" && strap.rssi == -50 && strap.serviceUUIDs == [0x180D])
        #expect(strap.appearance == 0x0341 && strap.isHeartRateSensor)
    }

    @Test func anExtendedReportReadsTheSame() throws {
        let payload = try Hex.decode(data)
        var event: [UInt8] = [0x01, 0x13, 0x00, 0x01] + [0x56, 0x34, 0x12, 0xC0, 0xFF, 0xEE]
        event += [0x01, 0x00, 0xFF, 0x7F, 0xCE, 0x00, 0x00, 0x00] + [UInt8](repeating: 0, count: 6)
        event += [UInt8(payload.count)] + payload
        let reports = try AdvertisingReport.parse(leExtendedAdvertisingReport: event)
        #expect(reports.first?.address == BluetoothAddress("EE:FF:C0:12:34:56", kind: .random))
        #expect(reports.first?.rssi == -50 && reports.first?.name == "Bumble HRM")
    }

    @Test func aScanResponseMergesIntoTheAdvertisement() throws {
        let address = try #require(BluetoothAddress("00:11:22:33:44:55", kind: .public))
        var report = AdvertisingReport(address: address, rssi: -70)
        report.read(advertisingData: [0x03, 0x03, 0x0D, 0x18][...])
        var response = AdvertisingReport(address: address, rssi: -68)
        response.read(advertisingData: [0x06, 0x08, 0x48, 0x31, 0x30, 0x20, 0x41][...])
        report.merge(response)
        #expect(report.name == "H10 A" && report.rssi == -68 && report.isHeartRateSensor)
    }

    @Test func cutShortEventsAreErrorsAndRandomBytesNeverTrap() throws {
        #expect(throws: AdvertisingReportError.self) {
            try AdvertisingReport.parse(leAdvertisingReport: [0x02, 0x00, 0x01])
        }
        #expect(throws: AdvertisingReportError.self) {
            try AdvertisingReport.parse(
                leAdvertisingReport: [0x01, 0x00, 0x01] + [UInt8](repeating: 1, count: 6) + [0x20, 0x00]
            )
        }
        #expect(throws: AdvertisingReportError.self) { try AdvertisingReport.parse(leExtendedAdvertisingReport: []) }
        var random = SplitMix(seed: 11)
        for _ in 0..<20_000 {
            let bytes = (0..<Int(random.next() % 64)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            _ = try? AdvertisingReport.parse(leAdvertisingReport: bytes)
            _ = try? AdvertisingReport.parse(leExtendedAdvertisingReport: bytes)
        }
    }

    @Test func addressesParseOnlyInTheirPrintedForm() {
        #expect(BluetoothAddress("f1:f1:f1:f1:f1:f1", kind: .random)?.text == "F1:F1:F1:F1:F1:F1")
        for bad in ["", "F1:F1:F1:F1:F1", "F1:F1:F1:F1:F1:G1", "F1F1:F1:F1:F1:F1", "F1:F1:F1:F1:F1:F1:F1"] {
            #expect(BluetoothAddress(bad, kind: .public) == nil, "\(bad)")
        }
        let address = BluetoothAddress(littleEndian: [0x01, 0x02, 0x03, 0x04, 0x05, 0x06], kind: .public)
        #expect(address.text == "06:05:04:03:02:01" && address.littleEndian == [1, 2, 3, 4, 5, 6])
    }
}
