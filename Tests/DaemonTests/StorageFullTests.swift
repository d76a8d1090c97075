import Foundation
import Harness
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The data log on a real 1.2 MB filesystem (tmpfs) that fills up mid-session, with a real gpsd
/// feeding a run: what the review found hanging (`ctl pause` with no reply, the same error several
/// times a second, rows piling up in memory) answered, logged, bounded and recovered from.
@Suite("Storage full (real small filesystem)", .serialized, .timeLimit(.minutes(4)))
struct StorageFullTests {
    private func number(_ object: [String: Any]?, _ key: String) -> Double {
        (object?[key] as? Double) ?? Double(object?[key] as? Int ?? -1)
    }

    private func storage(_ daemon: DaemonUnderTest) throws -> [String: Any] {
        try daemon.status()["storage"] as? [String: Any] ?? [:]
    }

    @Test func aFullDiskIsAnsweredLoggedBoundedAndRecordingResumesWhenSpaceComesBack() async throws {
        let directory = try temporaryDirectory("full")
        try await withTmpfs(at: "\(directory)/data", size: "1200k") {
            try await withProcessScope { scope in
                let (_, daemon) = try await liveRun("gps/park_loop_run.nmea", directory: directory, scope: scope)
                #expect(try await eventually(timeout: 90) { number(try daemon.status(), "distance_m") > 300 })
                let pid = try #require(daemon.child?.pid)

                // The disk fills up: within a second or two the daemon knows, and says so.
                let filler = "\(directory)/data/filler"
                fillUp(filler)
                #expect(try await eventually(timeout: 5) { try storage(daemon)["state"] as? String == "failing" })
                let failing = try storage(daemon)
                #expect(failing["cause"] as? String == "full", "\(failing)")
                let rssAtFailure = ProcessStats(pid: pid).rssMB

                // A command gets an error reply, naming the cause: never a hang (the reply's own
                // guard), never "ok".
                let asked = Date()
                let pause = try daemon.reply("pause", "--id", "p1")
                #expect(pause["ok"] as? Bool == false && pause["reason"] as? String == "storage_failing", "\(pause)")
                #expect((pause["error"] as? String)?.contains("full") == true, "\(pause)")
                let text = try daemon.ctl("status")
                #expect(text.status == 0)

                // Fixes keep coming and are given up (counted), not held: memory stays where it was.
                try await Task.sleep(for: .seconds(12))
                let held = try storage(daemon)
                let dropped = held["dropped"] as? [String: Any]
                #expect(number(dropped, "fixes") > 100, "\(held)")
                #expect(number(held, "pending_rows") < 100, "\(held)")
                #expect(ProcessStats(pid: pid).rssMB - rssAtFailure < 4, "RSS grew while the disk was full")
                let outage = Date()

                // Space comes back: recording resumes by itself.
                try FileManager.default.removeItem(atPath: filler)
                #expect(try await eventually(timeout: 10) { try storage(daemon)["state"] as? String == "ok" })
                let resumedAt = number(try daemon.status(), "distance_m")
                #expect(
                    try await eventually(timeout: 30) { number(try daemon.status(), "distance_m") > resumedAt + 50 }
                )
                let pauseAgain = try daemon.reply("pause", "--id", "p1")
                #expect(pauseAgain["ok"] as? Bool == true, "the same id, applied once storage is back: \(pauseAgain)")
                // The session that lived through the outage (autostart may begin another at the next fix).
                let end = try daemon.reply("end")
                #expect(end["ok"] as? Bool == true, "\(end)")
                let id = try #require(end["session_id"] as? String)
                daemon.child?.signal(SIGTERM, group: false)
                #expect(await daemon.child?.wait(timeout: 15) == 0)

                let log = daemon.child?.stderr ?? ""
                // Logged once at error level, then only at debug every retry (one each 2 s).
                #expect(log.components(separatedBy: "cannot write the data log").count - 1 == 1, "\(log.suffix(3000))")
                let retries = log.components(separatedBy: "commit failed").count - 1
                let seconds = outage.timeIntervalSince(asked) + 15
                #expect(retries >= 3 && Double(retries) <= seconds / 2 + 3, "\(retries) failed commits in \(seconds) s")

                let session = try daemon.show(id)
                let events = session["events"] as? [[String: Any]] ?? []
                let kinds = events.compactMap { $0["kind"] as? String }
                let full = try #require(kinds.firstIndex(of: "storage_full"), "\(kinds)")
                let back = try #require(kinds.firstIndex(of: "storage_recovered"), "\(kinds)")
                #expect(full < back)
                let recovered = events[back]["detail"] as? [String: Any]
                #expect(number(recovered, "fixes_dropped") > 100, "\(recovered ?? [:])")
                // The time without fixes is bridged like a GPS outage.
                #expect(kinds[back...].contains("gap_bridged"), "\(kinds)")
                #expect(session["state"] as? String == "ended")
            }
        }
    }

    /// SIGTERM while the disk is full: a clean exit, no crash; nothing acknowledged that is not on
    /// disk; once space is back, a restart resumes the session with everything acknowledged.
    @Test func sigtermWhileFullExitsCleanlyAndARestartResumesWhatWasAcknowledged() async throws {
        let directory = try temporaryDirectory("fullterm")
        try await withTmpfs(at: "\(directory)/data", size: "1200k") {
            try await withProcessScope { scope in
                let (_, daemon) = try await liveRun(
                    "gps/park_loop_run.nmea",
                    directory: directory,
                    autostart: false,
                    scope: scope
                )
                let start = try daemon.reply("start", "--id", "s1")
                #expect(start["ok"] as? Bool == true, "\(start)")
                let session = try #require(start["session_id"] as? String)
                #expect(try await eventually(timeout: 90) { number(try daemon.status(), "distance_m") > 300 })

                let filler = "\(directory)/data/filler"
                fillUp(filler)
                #expect(try await eventually(timeout: 5) { try storage(daemon)["state"] as? String == "failing" })
                let pause = try daemon.reply("pause", "--id", "p1")
                #expect(pause["ok"] as? Bool == false, "\(pause)")

                daemon.child?.signal(SIGTERM, group: false)
                let status = await daemon.child?.wait(timeout: 15)
                let log = daemon.child?.stderr ?? ""
                #expect(status == 0, "exit \(status.map(String.init) ?? "none"): \(log.suffix(2000))")
                #expect(!log.contains("Fatal error") && !log.contains("Crash"), "\(log.suffix(2000))")

                // On disk: the acknowledged start; not the pause, which was refused.
                let sessions = try daemon.sessions()
                #expect(sessions.map { $0["id"] as? String } == [session])
                try FileManager.default.removeItem(atPath: filler)

                try await daemon.start()
                let resumed = try daemon.status()
                #expect(resumed["session_id"] as? String == session && resumed["state"] as? String == "active")
                let startAgain = try daemon.reply("start", "--id", "s1")
                #expect(startAgain["ok"] as? Bool == true && startAgain["session_id"] as? String == session)
                #expect(try await eventually(timeout: 20) { number(try daemon.status(), "fixes_accepted") > 0 })
                #expect(try daemon.ctl("end").status == 0)
                await daemon.stop()
                let kinds = (try daemon.show(session)["events"] as? [[String: Any]] ?? []).compactMap {
                    $0["kind"] as? String
                }
                #expect(kinds.contains("session_recovered"), "\(kinds)")
            }
        }
    }
}
