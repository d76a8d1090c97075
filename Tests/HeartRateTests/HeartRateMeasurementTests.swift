import Foundation
import Harness
import HeartRate
import HexCoding
import Testing

/// `data/hrm/vectors.json`: real captures and edge cases with their meaning.
private struct Vectors: Decodable {
    struct Valid: Decodable {
        var hex: String
        var bpm: Int
        var contact: String
        var energy_kj: Int?
        var rr_ms: [Double]
        var note: String
    }

    struct Malformed: Decodable {
        var hex: String
        var error: String
    }

    var valid: [Valid]
    var malformed: [Malformed]

    static let shared: Vectors = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("data/hrm/vectors.json")
        do {
            return try JSONDecoder().decode(Vectors.self, from: Data(contentsOf: url))
        } catch {
            fatalError("cannot read \(url.path): \(error)")
        }
    }()
}

@Suite("Heart Rate Measurement (0x2A37)")
struct HeartRateMeasurementTests {
    @Test(arguments: Vectors.shared.valid.indices)
    func everyValidVectorDecodesToItsMeaning(index: Int) throws {
        let vector = Vectors.shared.valid[index]
        let bytes = try Hex.decode(vector.hex)
        let measurement = try HeartRateMeasurement(payload: bytes)
        #expect(measurement.bpm == vector.bpm, "\(vector.note)")
        #expect(measurement.contact.rawValue == vector.contact, "\(vector.note)")
        #expect(measurement.energyExpended == vector.energy_kj, "\(vector.note)")
        #expect(measurement.rrMilliseconds == vector.rr_ms, "\(vector.note)")
        // What is not a whole field is counted, never decoded.
        let used = 1 + (bytes[0] & 1 == 0 ? 1 : 2) + (vector.energy_kj == nil ? 0 : 2) + 2 * vector.rr_ms.count
        #expect(measurement.trailingBytes == bytes.count - used, "\(vector.note)")
    }

    @Test func theVectorsCoverWhatTheIssueNames() {
        let vectors = Vectors.shared.valid
        #expect(vectors.count >= 14)
        #expect(vectors.contains { $0.note.contains("dangling") })
        #expect(Set(vectors.map(\.contact)) == ["not_supported", "not_detected", "detected"])
    }

    @Test(arguments: Vectors.shared.malformed.indices)
    func everyMalformedVectorIsAClearError(index: Int) throws {
        let vector = Vectors.shared.malformed[index]
        let bytes = try Hex.decode(vector.hex)
        #expect(throws: HeartRateMeasurementError.self, "\(vector.error)") { try HeartRateMeasurement(payload: bytes) }
        do {
            _ = try HeartRateMeasurement(payload: bytes)
        } catch {
            #expect(!error.description.isEmpty)
            if !bytes.isEmpty { #expect(error.description.contains("offset"), "\(error)") }
        }
    }

    /// Any prefix of any valid payload either decodes to a prefix of its meaning or is an error:
    /// a strap cut off mid-notification never yields a made-up value.
    @Test func truncationNeverInventsAValue() throws {
        for vector in Vectors.shared.valid {
            let bytes = try Hex.decode(vector.hex)
            for length in 0..<bytes.count {
                guard let partial = try? HeartRateMeasurement(payload: bytes.prefix(length)) else { continue }
                #expect(partial.bpm == vector.bpm)
                #expect(vector.rr_ms.starts(with: partial.rrMilliseconds))
                #expect(partial.energyExpended == nil || partial.energyExpended == vector.energy_kj)
            }
        }
    }

    /// Random bytes: decoded or refused, never a crash; RR count always fits the length.
    @Test func randomPayloadsNeverCrash() {
        var random = SplitMix(seed: 2037)
        for _ in 0..<20_000 {
            let count = Int(random.uniform() * 24)
            let bytes = (0..<count).map { _ in UInt8(random.uniform() * 256) }
            if let m = try? HeartRateMeasurement(payload: bytes) {
                #expect(2 * m.rrIntervals.count + m.trailingBytes < bytes.count)
            }
        }
    }

    @Test(arguments: [
        ("16 3c f5 03", [0x16, 0x3c, 0xf5, 0x03]), ("163CF503", [0x16, 0x3c, 0xf5, 0x03]),
        ("0x16,0x3c", [0x16, 0x3c]), ("16:3c", [0x16, 0x3c]), ("", []),
    ])
    func hexAsToolsWriteIt(text: String, bytes: [UInt8]) throws {
        #expect(try Hex.decode(text) == bytes)
    }

    @Test func badHexSaysWhere() {
        #expect(throws: Hex.DecodeError.self) { try Hex.decode("16 3g") }
        #expect(throws: Hex.DecodeError.self) { try Hex.decode("16 3") }
    }
}
