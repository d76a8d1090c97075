import Foundation
import Testing
import UTCFormat

/// The hand-made UTC time (the journal's and the exports') against Foundation's ISO 8601 format
/// (ICU is fine in a test), for whole seconds.
struct UTCTimeTests {
    @Test func matchesFoundationAcrossCenturiesLeapDaysAndBeforeTheEpoch() {
        var generator = SystemRandomNumberGenerator()
        var seconds: [Int64] = [
            0, -1, 86_399, 86_400, 951_782_400, 951_868_799, 1_795_849_478, 4_107_542_399, -2_208_988_800,
        ]
        for _ in 0..<2000 { seconds.append(Int64.random(in: -2_208_988_800...7_258_118_400, using: &generator)) }
        for second in seconds {
            let expected = Date(timeIntervalSince1970: Double(second)).formatted(.iso8601)
            #expect(UTCTime.text(Double(second)) == expected, "at \(second)")
        }
    }
}
