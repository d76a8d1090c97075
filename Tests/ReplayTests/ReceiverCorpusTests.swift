import Foundation
import Logging
import Testing
import TrackCore

@testable import Replay

/// gpsd's regression suite (153 real receivers): every log replays, and a receiver its contributor
/// calls stationary adds next to nothing.
@Suite struct ReceiverCorpusTests {
    static let folder = "data/gps-corpus"
    static var logs: [ReceiverCorpus.Log] { (try? ReceiverCorpus(folder: folder).logs) ?? [] }

    /// Stationary by their description, but their own fixes say they moved (see `itsFixesMoved`).
    static let contradicted: Set<String> = ["nl2008u"]

    /// Replays as walking, the strictest profile, logging nothing below critical.
    private var replayer: FileReplayer {
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        return FileReplayer(activity: .walking, logger: logger)
    }

    private func replay(_ log: ReceiverCorpus.Log) throws -> ReplayReport {
        try replayer.replay(path: log.path)
    }

    @Test func theCorpusIsThereAndClassified() {
        let logs = Self.logs
        #expect(logs.count == 153)
        #expect(logs.allSatisfy { FileManager.default.fileExists(atPath: $0.path) })
        #expect(logs.filter { $0.described == .stationary }.count == 18)
        #expect(logs.filter { $0.described == .moving }.map(\.name) == ["bu303-climbing", "bu303-moving"])
        #expect(ReceiverCorpus.classify(name: "x", words: "In a not moving car.") == .stationary)
        #expect(ReceiverCorpus.classify(name: "bu303-moving", words: "") == .moving)
    }

    /// A guard against a hang, not a timing: 13 s here (debug), 10 s on arm64 under qemu-user (release).
    @Test(.timeLimit(.minutes(10)))
    func everyLogReplaysCleanly() throws {
        for log in Self.logs {
            let report = try replay(log)
            #expect(report.lines > 0, "\(log.name)")
            #expect(report.summary.distance.isFinite && report.summary.elapsed.isFinite, "\(log.name)")
            #expect(report.malformedLines == 0, "\(log.name): \(report.malformedLines) malformed lines")
        }
    }

    @Test func stationaryDescribedLogsStayUnderFiveMetres() throws {
        let stationary = Self.logs.filter { $0.described == .stationary && !Self.contradicted.contains($0.name) }
        #expect(stationary.count == 17)
        for log in stationary {
            let distance = try replay(log).summary.distance
            #expect(distance < 5, "\(log.name): \(distance) m")
        }
    }

    /// nl2008u ("In a not moving car."): its fixes move 3.4-5.2 m/s south by Doppler and by position
    /// for five seconds, and it reappears about 690 m away twenty minutes later. The car moved.
    @Test func itsFixesMoved() throws {
        let fixes = try replayer.timedFixes(path: "\(Self.folder)/nl2008u.jsonl")
            .filter { $0.position != nil }
        let moving = fixes.filter { ($0.speed ?? 0) > 3 }
        #expect(moving.count >= 4)
        guard let first = fixes.first?.position, let last = fixes.last?.position else {
            Issue.record("no positions")
            return
        }
        #expect(WGS84.distance(first, last) > 500)
    }
}
