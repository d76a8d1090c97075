import Foundation
import GPSD
import Harness
import Store
import Testing
import TrackCore

#if canImport(Glibc)
import Glibc
#endif

/// The daemon against a real gpsd fed by gpsfake: the same data through `wearbridge replay` must
/// give the same session, through gpsd restarts and `kill -9`.
@Suite("Daemon with a real gpsd", .serialized, .timeLimit(.minutes(5)))
struct GPSDIntegrationTests {
    private func number(_ object: [String: Any], _ key: String) -> Double {
        (object[key] as? Double) ?? Double(object[key] as? Int ?? -1)
    }

    @Test func theDaemonRecordsWhatReplayComputesFromTheSameStream() async throws {
        try await withProcessScope { scope in
            let directory = try temporaryDirectory("match")
            let gpsd = try FakeGPSD(
                "\(recordings)/gps/track_3k_laps.nmea",
                cycle: 0.004,
                directory: directory,
                scope: scope
            )
            let daemon = try DaemonUnderTest(directory: directory, gpsdPort: gpsd.port, scope: scope)
            #expect(await gpsd.waitUntilListening())
            let capture = try Capture(port: gpsd.port, directory: directory, scope: scope)
            try await daemon.start()
            #expect(try await daemon.waitForQuiet())
            await gpsd.stop()
            await capture.stop()
            let end = try daemon.ctl("end")
            #expect(end.status == 0, "\(end.out) \(end.err)")
            await daemon.stop()

            let sessions = try daemon.sessions()
            try #require(sessions.count == 1)
            let id = sessions[0]["id"] as! String
            let session = try daemon.show(id)
            let start = try firstFixTime(directory, session: id)
            let replayed = try replay(try trimmed([capture.path], from: start, into: "\(directory)/trimmed.json"))
            let distance = number(session, "distance_m")
            let expected = number(replayed, "distance_m")
            #expect(session["state"] as? String == "ended")
            #expect(abs(distance - expected) / expected < 0.005, "daemon \(distance) m, replay \(expected) m")
            #expect(abs(number(session, "elapsed_s") - number(replayed, "elapsed_s")) < 5)
            #expect(number(session, "fixes_accepted") > 500)
            #expect(((session["splits"] as? [Any])?.count ?? 0) >= 2)
        }
    }

    @Test func killNineMidSessionResumesWithNothingCountedTwice() async throws {
        try await withProcessScope { scope in
            let directory = try temporaryDirectory("kill9")
            let log = "\(directory)/park.nmea"
            try head("\(recordings)/gps/park_loop_run.nmea", lines: 0..<2800, into: log)
            let gpsd = try FakeGPSD(log, cycle: 0.008, directory: directory, scope: scope)
            let daemon = try DaemonUnderTest(directory: directory, gpsdPort: gpsd.port, scope: scope)
            #expect(await gpsd.waitUntilListening())
            let capture = try Capture(port: gpsd.port, directory: directory, scope: scope)
            try await daemon.start()
            #expect(try await eventually(timeout: 60) { number(try daemon.status(), "distance_m") > 600 })
            let before = try daemon.status()
            daemon.child?.signal(SIGKILL)
            await daemon.child?.wait(timeout: 5)
            try await daemon.start()
            let after = try daemon.status()
            #expect(after["session_id"] as? String == before["session_id"] as? String)
            #expect(try await daemon.waitForQuiet())
            await gpsd.stop()
            await capture.stop()
            #expect(try daemon.ctl("end").status == 0)
            await daemon.stop()

            let sessions = try daemon.sessions()
            try #require(sessions.count == 1, "one session across the crash")
            let id = sessions[0]["id"] as! String
            let session = try daemon.show(id)
            let kinds = (session["events"] as? [[String: Any]] ?? []).compactMap { $0["kind"] as? String }
            #expect(kinds.contains("session_recovered") && kinds.contains("restart_gap"), "\(kinds)")
            // The session as rebuilt at restart: at most the last batch (about a second) lost, nothing added.
            let recovered = (session["events"] as? [[String: Any]] ?? []).first {
                $0["kind"] as? String == "session_recovered"
            }
            let recoveredDistance = ((recovered?["detail"] as? [String: Any])?["distance_m"] as? Double) ?? -1
            #expect(recoveredDistance <= number(before, "distance_m") + 1)
            #expect(recoveredDistance > number(before, "distance_m") - 150, "\(recoveredDistance) vs \(before)")

            // The file a SIGKILL hit mid-batch is whole.
            let check = try runCommand(
                "/usr/bin/python3",
                [
                    "-c",
                    """
                    import sqlite3; print(sqlite3.connect('\(directory)/data/wearbridge.sqlite').execute('pragma integrity_check').fetchone()[0])
                    """,
                ]
            )
            #expect(check.out.trimmingCharacters(in: .whitespacesAndNewlines) == "ok", "\(check.out)\(check.err)")

            // Every epoch logged once, and one straight pass of the core over exactly the logged fixes
            // gives the daemon's distance: recovery added nothing and dropped nothing.
            let log2 = try SessionLog.openReadOnly(directory: "\(directory)/data")
            let journal = try log2.journal(of: id).entries
            var times: [Double] = []
            var straight = TrackSession(activity: .running)
            for case .fix(let fix) in journal {
                var replayed = fix
                replayed.receivedAt = nil
                if case .accepted = straight.ingest(replayed).verdict, let time = fix.time {
                    times.append(time.seconds)
                }
            }
            #expect(Set(times).count == times.count)
            let distance = number(session, "distance_m")
            #expect(abs(distance - straight.distance) < 0.5, "daemon \(distance), one pass \(straight.distance)")
            // Against everything gpsd sent, the only difference is the bridged restart gap.
            let start = try firstFixTime(directory, session: id)
            let full = try replay(try trimmed([capture.path], from: start, into: "\(directory)/trimmed.json"))
            #expect(
                abs(distance - number(full, "distance_m")) / number(full, "distance_m") < 0.02,
                "daemon \(distance), replay \(full)"
            )
            #expect(abs(number(session, "elapsed_s") - number(full, "elapsed_s")) < 5)
        }
    }

    @Test func gpsdRestartedMidSessionIsReconnectedAndTheSessionGoesOn() async throws {
        try await withProcessScope { scope in
            let directory = try temporaryDirectory("restart")
            let first = "\(directory)/first.nmea"
            let second = "\(directory)/second.nmea"
            try head("\(recordings)/gps/track_3k_laps.nmea", lines: 0..<1160, into: first)
            try head("\(recordings)/gps/track_3k_laps.nmea", lines: 1160..<2322, into: second)
            let port = Loopback.freePort()
            let gpsd1 = try FakeGPSD(
                first,
                port: port,
                cycle: 0.004,
                directory: directory,
                name: "gpsfake1",
                scope: scope
            )
            let daemon = try DaemonUnderTest(directory: directory, gpsdPort: port, scope: scope)
            #expect(await gpsd1.waitUntilListening())
            let capture1 = try Capture(port: port, directory: directory, name: "capture1", scope: scope)
            try await daemon.start()
            #expect(try await daemon.waitForQuiet())
            let mid = number(try daemon.status(), "distance_m")
            await capture1.stop()
            await gpsd1.stop()
            #expect(
                try await eventually(timeout: 10) {
                    (try daemon.status()["gps"] as? [String: Any])?["gpsd_connected"] as? Bool == false
                }
            )
            let gpsd2 = try FakeGPSD(
                second,
                port: port,
                cycle: 0.004,
                directory: directory,
                name: "gpsfake2",
                scope: scope
            )
            // gpsd is up when the daemon's backoff brings it back; the capture joins it.
            #expect(
                try await eventually(timeout: 20) {
                    (try daemon.status()["gps"] as? [String: Any])?["gpsd_connected"] as? Bool == true
                }
            )
            let capture2 = try Capture(port: port, directory: directory, name: "capture2", scope: scope)
            #expect(try await eventually(timeout: 30) { number(try daemon.status(), "distance_m") > mid + 100 })
            #expect(try await daemon.waitForQuiet())
            await capture2.stop()
            await gpsd2.stop()
            #expect(try daemon.ctl("end").status == 0)
            await daemon.stop()

            let sessions = try daemon.sessions()
            try #require(sessions.count == 1)
            let id = sessions[0]["id"] as! String
            let session = try daemon.show(id)
            let kinds = (session["events"] as? [[String: Any]] ?? []).compactMap { $0["kind"] as? String }
            #expect(kinds.contains("gpsd_disconnected"))
            #expect(kinds.lastIndex(of: "gpsd_connected") ?? -1 > kinds.firstIndex(of: "gpsd_disconnected") ?? 0)
            let distance = number(session, "distance_m")
            let start = try firstFixTime(directory, session: id)
            let both = try replay(
                try trimmed([capture1.path, capture2.path], from: start, into: "\(directory)/both.json")
            )
            #expect(
                abs(distance - number(both, "distance_m")) / number(both, "distance_m") < 0.02,
                "daemon \(distance), replay \(both)"
            )
        }
    }

    @Test func theGPSCommandPrintsLiveVerdicts() async throws {
        try await withProcessScope { scope in
            let directory = try temporaryDirectory("gpscmd")
            let gpsd = try FakeGPSD(
                "\(recordings)/gps-real/sirf2.log",
                cycle: 0.004,
                directory: directory,
                scope: scope
            )
            #expect(await gpsd.waitUntilListening())
            let gps = try ChildProcess(
                Command.wearbridge,
                ["gps", "--json", "--port", "\(gpsd.port)", "--activity", "walking"],
                directory: directory,
                name: "gps",
                scope: scope
            )
            // sirf2 starts without a fix: rejected as no_fix, and then accepted.
            let enough = await eventually(timeout: 30) { gps.stdout.contains("\"verdict\":\"accepted\"") }
            await gps.stop()
            #expect(enough, "\(gps.stdout) \(gps.stderr)")
            let lines = gps.stdout.split(separator: "\n").compactMap {
                try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }
            #expect(lines.count >= 20)
            #expect(lines.allSatisfy { $0["verdict"] is String && $0["mode"] is Int })
            #expect(lines.contains { $0["verdict"] as? String == "accepted" })
            #expect(lines.contains { $0["verdict"] as? String == "no_fix" })
        }
    }

    /// A first fix that never comes is explained in `ctl status` with what gpsd says: first no gpsd
    /// at all (the connection's error), then a receiver that reports without a fix, with the
    /// satellites it sees.
    @Test func aFirstFixThatNeverComesIsExplainedByWhatGPSDSays() async throws {
        try await withProcessScope { scope in
            let directory = try temporaryDirectory("nofix")
            let port = Loopback.freePort()
            let daemon = try DaemonUnderTest(directory: directory, gpsdPort: port, scope: scope)
            try await daemon.start()
            var unreachable: [String: Any]?
            #expect(
                try await eventually(timeout: 10) {
                    unreachable = (try daemon.status()["gps"] as? [String: Any])?["no_fix"] as? [String: Any]
                    return unreachable != nil
                }
            )
            #expect(unreachable?["reason"] as? String == "gpsd_unreachable")
            let detail = unreachable?["detail"] as? String ?? ""
            #expect(detail.localizedCaseInsensitiveContains("refused"), "\(unreachable ?? [:])")
            let text = try runCommand(Command.wearbridge, ["ctl", "status", "--socket", daemon.socketPath]).out
            #expect(text.contains("no fix yet") && text.contains("gpsd unreachable"), "\(text)")

            let log = "\(directory)/searching.nmea"
            try Self.searchingReceiver(seconds: 120).write(toFile: log, atomically: true, encoding: .utf8)
            let gpsd = try FakeGPSD(log, port: port, cycle: 0.1, directory: directory, scope: scope)
            #expect(await gpsd.waitUntilListening())
            var searching: [String: Any]?
            let searched = try await eventually(timeout: 40) {
                searching = (try daemon.status()["gps"] as? [String: Any])?["no_fix"] as? [String: Any]
                return searching?["reason"] as? String == "searching" && searching?["satellites_seen"] as? Int == 3
            }
            #expect(searched, "\(searching ?? [:])")
            #expect(searching?["satellites_used"] as? Int == 0, "\(searching ?? [:])")
            let line = try runCommand(Command.wearbridge, ["ctl", "status", "--socket", daemon.socketPath]).out
            #expect(line.contains("the receiver is searching, 3 satellites seen, 0 used"), "\(line)")
            await gpsd.stop()
            await daemon.stop()
        }
    }

    /// NMEA of a receiver that sees three satellites and has no fix, one epoch a second.
    static func searchingReceiver(seconds: Int) -> String {
        func sentence(_ body: String) -> String {
            let sum = body.utf8.reduce(UInt8(0)) { $0 ^ $1 }
            return "$\(body)*\(String(format: "%02X", sum))"
        }
        var lines: [String] = []
        for second in 0..<seconds {
            let time = String(format: "12%02d%02d.00", second / 60, second % 60)
            lines.append(sentence("GPGGA,\(time),,,,,0,00,99.9,,M,,M,,"))
            lines.append(sentence("GPGSA,A,1,,,,,,,,,,,,,99.9,99.9,99.9"))
            lines.append(sentence("GPGSV,1,1,03,05,40,120,21,12,25,250,18,24,60,300,"))
            lines.append(sentence("GPRMC,\(time),V,,,,,,,271126,,,N"))
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

/// `wearbridge replay --json` of a capture.
func replay(_ path: String) throws -> [String: Any] {
    let result = try runCommand(Command.wearbridge, ["replay", "--json", path])
    return try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any] ?? [:]
}

/// The first `count` lines of a recording, as a file of its own.
func head(_ source: String, lines: Range<Int>, into path: String) throws {
    let all = try String(contentsOfFile: source, encoding: .utf8).split(whereSeparator: \.isNewline)
    try all[lines.clamped(to: 0..<all.count)].joined(separator: "\n").appending("\n").write(
        toFile: path,
        atomically: true,
        encoding: .utf8
    )
}

/// A capture without the TPVs before `start` (GPS seconds): what gpsd sent before the daemon
/// connected is not the daemon's to record.
func trimmed(_ paths: [String], from start: Double, into path: String) throws -> String {
    var kept: [Substring] = []
    for source in paths {
        for line in try String(contentsOfFile: source, encoding: .utf8).split(whereSeparator: \.isNewline) {
            guard line.contains("\"class\":\"TPV\""), let range = line.range(of: "\"time\":\"") else {
                kept.append(line)
                continue
            }
            let stamp = String(line[range.upperBound...].prefix(while: { $0 != "\"" }))
            guard let time = ISO8601Time.parse(stamp), time.seconds < start - 0.0005 else {
                kept.append(line)
                continue
            }
        }
    }
    try (kept.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
    return path
}

/// The GPS time of a session's first logged fix.
func firstFixTime(_ directory: String, session: String) throws -> Double {
    let log = try SessionLog.openReadOnly(directory: "\(directory)/data")
    for case .fix(let fix) in try log.journal(of: session).entries {
        if let time = fix.time { return time.seconds }
    }
    return 0
}
