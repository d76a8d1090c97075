import Foundation
import Harness
import Testing

/// Runs the built `wearbridge` executable as a user would.
@Suite struct CommandLineTests {
    func run(_ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
        try Command.run(Command.wearbridge, arguments)
    }

    @Test func replayJSONHasTheDocumentedFields() throws {
        let result = try run(["replay", "--json", "data/gps/park_loop_run.jsonl"])
        #expect(result.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
        for key in [
            "file", "activity", "distance_m", "elapsed_s", "moving_s", "paused_s", "fixes", "splits",
            "auto_pauses", "malformed_lines",
        ] {
            #expect(object[key] != nil, "\(key)")
        }
        let fixes = try #require(object["fixes"] as? [String: Any])
        #expect(fixes["accepted"] as? Int ?? 0 > 1900)
        #expect((fixes["rejected"] as? [String: Int])?["horizontal_error"] ?? 0 > 0)
        let splits = try #require(object["splits"] as? [[String: Any]])
        #expect(splits.count == 6)
        #expect(splits.first?["index"] as? Int == 1)
    }

    @Test func cuesOfARecordingAreTheSameEveryRun() throws {
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("wearbridge-cues-\(getpid()).toml")
        try Data().write(to: empty)
        defer { try? FileManager.default.removeItem(at: empty) }
        let arguments = ["cues", "--config", empty.path, "data/gps/park_loop_run.jsonl"]
        let first = try run(arguments)
        let second = try run(arguments)
        #expect(first.status == 0, "\(first.err)")
        #expect(first.out == second.out)
        let lines = first.out.split(separator: "\n")
        #expect(lines.first?.contains("Session started.") == true)
        #expect(lines.filter { $0.contains(" split ") }.count == 6)
        #expect(lines.last?.contains("Session ended, 6.01 kilometres") == true)
        let german = try run(arguments + ["--language", "de", "--units", "imperial", "--json"])
        let objects = try german.out.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(objects.first?["text"] as? String == "Training gestartet.")
        #expect((objects.last?["text"] as? String)?.contains("Meilen") == true)
        let unknown = try run(["cues", "--config", empty.path, "no-such-session", "--storage", "/nonexistent"])
        #expect(unknown.status != 0 && !unknown.err.isEmpty)
    }

    @Test func aMissingFileIsAClearErrorAndTheOthersStillReplay() throws {
        let result = try run([
            "replay", "--json", "/nonexistent/recording.jsonl", "data/gps/stationary_5min.jsonl",
        ])
        #expect(result.status != 0)
        #expect(result.err.contains("/nonexistent/recording.jsonl"))
        #expect(result.err.contains("no such file") || result.err.contains("No such file"))
        #expect(result.out.contains("stationary_5min"))
    }

    @Test func aDirectoryIsNotARecording() throws {
        let result = try run(["replay", "data"])
        #expect(result.status != 0)
        #expect(result.err.contains("cannot"))
    }

    @Test func malformedLinesAreReportedOnStderrWithTheirLineNumber() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("wearbridge-cli-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("bad.jsonl")
        try Data("{\"class\":\"VERSION\"}\n{{{{\n{\"class\":\"TPV\",\"mode\":1}\n".utf8).write(to: file)
        let result = try run(["replay", "--json", file.path])
        #expect(result.status == 0)
        #expect(result.err.contains("line=2"))
        #expect(result.out.contains("\"malformed_lines\":1"))
    }

    @Test func anUnknownActivityIsRejectedByTheParser() throws {
        let result = try run(["replay", "--activity", "swimming", "x.jsonl"])
        #expect(result.status != 0)
        #expect(result.err.contains("swimming"))
    }

    @Test func decodeHRMPrintsWhatAPayloadMeans() throws {
        let text = try run(["decode-hrm", "10 3e b1 03 de"])
        #expect(text.status == 0)
        #expect(text.out.contains("62 bpm") && text.out.contains("RR 922.9 ms") && text.out.contains("1 trailing byte"))
        let json = try run(["decode-hrm", "--json", "16 3c 11 04"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
        #expect(object["bpm"] as? Int == 60 && object["contact"] as? String == "detected")
        #expect(object["rr_ms"] as? [Double] == [1016.6] && object["energy_kj"] is NSNull)
        let bad = try run(["decode-hrm", "08 3c 01"])
        #expect(bad.status == 1 && bad.err.contains("energy expended") && bad.err.contains("offset 2"), "\(bad.err)")
        let notHex = try run(["decode-hrm", "zz"])
        #expect(notHex.status == 1 && notHex.err.contains("not hex"))
    }

    /// This machine has no Bluetooth: the field tools say so plainly instead of failing obscurely.
    @Test func scanAndStrapWithoutAnAdapterSayWhy() throws {
        let scan = try run(["scan", "--seconds", "1", "--adapter", "hci9"])
        #expect(scan.status == 1 && scan.err.contains("no Bluetooth adapter hci9"), "\(scan.err)")
        let badSeconds = try run(["scan", "--seconds", "0"])
        #expect(badSeconds.status == 64 && badSeconds.err.contains("--seconds"))
        let badAddress = try run(["strap", "F1:F1:F1"])
        #expect(badAddress.status == 64 && badAddress.err.contains("not an address like"), "\(badAddress.err)")
        // It keeps retrying (quietly) until told to stop, then exits cleanly.
        let strap = try run(["strap", "F1:F1:F1:F1:F1:F1", "--adapter", "hci9", "--seconds", "1.5"])
        #expect(strap.status == 0 && strap.out.isEmpty, "\(strap.out)")
        #expect(strap.err.components(separatedBy: "strap connection failed").count == 2, "\(strap.err)")
        #expect(strap.err.contains("no Bluetooth adapter hci9"))
    }
}
