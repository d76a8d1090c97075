import Foundation
import Testing

@testable import Store

/// The hand-written detail JSON against Foundation's JSONSerialization, the writer it replaced.
struct DetailJSONTests {
    private static let texts = [
        "", "plain", "/dev/ttyUSB0", "quote \" and backslash \\", "line\nbreak\ttab\r", "\u{01}\u{1F}\u{08}\u{0C}",
        "naïve — ünïcödé 🏃", "{\"json\":[1,2]}", "\u{7F}\u{2028}",
    ]
    private static let numbers: [Double] = [
        0, 1, -1, 1_750_000_000, 1234.5, 0.1, 1.0 / 3, -7.25, 1e-7, 123_456_789.123, 9_007_199_254_740_991,
        4.9e-324, 1.7976931348623157e308, 1e21,
    ]

    @Test func writesWhatJSONSerializationWrote() throws {
        var generator = SystemRandomNumberGenerator()
        for round in 0..<500 {
            var detail: [String: StoredValue] = [:]
            for index in 0..<Int.random(in: 0...6, using: &generator) {
                let key = Self.key(index, using: &generator)
                detail[key] =
                    Bool.random(using: &generator)
                    ? .number(Self.numbers.randomElement(using: &generator)!)
                    : .text(Self.texts.randomElement(using: &generator)!)
            }
            let ours = DetailJSON.text(detail)
            let object = detail.mapValues { value -> Any in
                switch value {
                case .number(let number): number
                case .text(let text): text
                }
            }
            let theirs = String(
                decoding: try JSONSerialization.data(
                    withJSONObject: object,
                    options: [.sortedKeys, .withoutEscapingSlashes]
                ),
                as: UTF8.self
            )
            // Byte for byte; and read back, the same object.
            let parsedOurs = try JSONSerialization.jsonObject(with: Data(ours.utf8)) as? NSDictionary
            let parsedTheirs = try JSONSerialization.jsonObject(with: Data(theirs.utf8)) as? NSDictionary
            #expect(parsedOurs == parsedTheirs, "round \(round): \(ours) against \(theirs)")
            #expect(ours == theirs, "round \(round)")
        }
    }

    /// A key as the data log's are (lower case and underscores: `distance_m`): for those, byte
    /// order is the collation order JSONSerialization sorted by (it differs for digits and symbols).
    private static func key(_ index: Int, using generator: inout SystemRandomNumberGenerator) -> String {
        let letters = Array("abcdefghijklmnopqrstuvwxyz_")
        let length = Int.random(in: 1...12, using: &generator)
        return String((0..<length).map { _ in letters.randomElement(using: &generator)! })
            + String(repeating: "_", count: index)
    }

    @Test func leavesOutWhatJSONCannotSay() {
        #expect(DetailJSON.text(["a": .number(.nan), "b": .number(.infinity), "c": .number(2)]) == #"{"c":2}"#)
        #expect(DetailJSON.text([:]) == "{}")
    }

    @Test func numbersReadBackExactly() {
        for number in Self.numbers + [0.1 + 0.2, 2.5e-5, -123.456] {
            #expect(Double(DetailJSON.number(number)!) == number, "\(number)")
        }
    }
}
