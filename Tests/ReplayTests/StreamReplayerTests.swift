import Foundation
import Harness
import Testing
import TrackCore

@testable import Replay

@Suite struct StreamReplayerTests {
    static let recording = "data/gps/track_3k_laps.jsonl"

    func replay(_ bytes: [UInt8], records: LogRecords = LogRecords(), chunk: Int = 4096) -> ReplayReport {
        var replayer = StreamReplayer(name: "test", session: TrackSession(activity: .running), logger: records.logger())
        var i = 0
        while i < bytes.count {
            replayer.consume(bytes[i..<min(i + chunk, bytes.count)])
            i += chunk
        }
        return replayer.finish()
    }

    func clean() throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: Self.recording))) }

    @Test func garbageBetweenGoodLinesIsCountedWithLineNumbersAndChangesNothing() throws {
        let good = try clean()
        let reference = replay(good)
        var lines = String(decoding: good, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(
            String.init
        )
        lines.insert("this is not json", at: 10)
        lines.insert(#"{"class":"TPV","mode":3,"lat":"north","lon":1}"#, at: 20)
        lines.insert(String(decoding: [0xff, 0xfe, 0x00, 0x01, 0x80], as: UTF8.self), at: 30)
        lines.insert(#"{"class":"TPV","mode":3,"time":"2025-06-14T06:33:00.000Z","lat":1e400,"lon":1}"#, at: 40)
        let records = LogRecords()
        let report = replay(Array(lines.joined(separator: "\n").utf8), records: records)
        // 1e400 is not a finite JSON number: the decoder refuses it, like the other three.
        #expect(report.malformedLines == 4)
        #expect(abs(report.summary.distance - reference.summary.distance) < 1)
        let warnings = records.all.filter { $0.message == "malformed gpsd line" }
        #expect(warnings.count == report.malformedLines)
        #expect(warnings.map { $0.metadata["line"]?.description }.prefix(3) == ["11", "21", "31"])
        #expect(warnings[1].metadata["error"]?.description.contains("lat") == true)
    }

    @Test func aTruncatedRecordingKeepsWhatWasCompleteAndReportsTheRest() throws {
        let good = try clean()
        let cut = Array(good.prefix(good.count / 2 + 37))
        let report = replay(cut)
        #expect(report.summary.distance > 1000)
        #expect(report.malformedLines <= 1)
    }

    @Test func aHostileStreamIsSurvived() {
        var bytes = [UInt8](repeating: 0x7b, count: 5_000_000)  // 5 MB of "{" with no newline
        bytes += Array("\n".utf8)
        var rng = SystemRandomNumberGenerator()
        bytes += (0..<100_000).map { _ in UInt8.random(in: 0...255, using: &rng) }
        bytes += Array("\n{\"class\":\"TPV\",\"mode\":3,\"time\":\"2025-01-01T00:00:00Z\",\"lat\":91,\"lon\":0}\n".utf8)
        let records = LogRecords()
        let report = replay(bytes, records: records, chunk: 65536)
        #expect(report.malformedLines >= 2)
        #expect(report.summary.rejected[.invalidCoordinates] == 1)
        #expect(report.summary.distance == 0)
        #expect(records.all.count <= 52)
    }

    @Test func everyMessageClassIsCounted() throws {
        let report = replay(try clean())
        #expect(report.messages["VERSION"] == 1)
        #expect(report.messages["TPV"] == 774)
        #expect(report.messages["SKY"] == 150)
        #expect(report.mergedReports == 22)
    }
}
