import Foundation
import Harness
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `wearbridge run` as systemd and a field tester meet it: start-up errors, READY=1, control
/// socket abuse, SIGTERM. No gpsd here: the daemon must not wait for it.
@Suite("Daemon process", .serialized, .timeLimit(.minutes(3)))
struct DaemonProcessTests {
    /// Starts the daemon expecting it to refuse; returns its exit status and stderr.
    private func refusal(_ arguments: [String], asNobody: Bool = false) async throws -> (Int32?, String) {
        try await withProcessScope { scope in
            let directory = try temporaryDirectory("refuse")
            var executable = Command.wearbridge
            var arguments = arguments
            if asNobody, getuid() == 0 {
                // Root writes anywhere; drop to nobody so that permissions mean something.
                arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", executable] + arguments
                executable = "/usr/bin/setpriv"
            }
            let child = try ChildProcess(executable, arguments, directory: directory, name: "daemon", scope: scope)
            let status = await child.wait(timeout: 20)
            if status == nil { await child.stop() }
            return (status, child.stderr)
        }
    }

    private func config(_ directory: String, _ body: String) throws -> String {
        let path = "\(directory)/wearbridge.toml"
        try body.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func aBadConfigurationStopsStartUpNamingTheKey() async throws {
        let directory = try temporaryDirectory("badconf")
        let path = try config(directory, "[session]\nactivity = \"swimming\"\n")
        let (status, stderr) = try await refusal(["run", "--config", path])
        #expect(status == 78)
        #expect(stderr.contains("session.activity = \"swimming\""), "\(stderr)")
        let unknown = try config(directory, "[gpsd]\nprot = 2947\n")
        let (status2, stderr2) = try await refusal(["run", "--config", unknown])
        #expect(status2 == 78 && stderr2.contains("unknown key gpsd.prot"), "\(stderr2)")
    }

    @Test func anUnwritableStorageDirectoryIsAClearError() async throws {
        let directory = try temporaryDirectory("rostore")
        let storage = "\(directory)/data"
        try FileManager.default.createDirectory(atPath: storage, withIntermediateDirectories: true)
        chmod(directory, 0o755)
        chmod(storage, 0o555)
        let path = try config(
            directory,
            """
            [storage]
            directory = "\(storage)"
            [control]
            socket = "\(directory)/c.sock"
            """
        )
        chmod(path, 0o644)
        let (status, stderr) = try await refusal(["run", "--config", path], asNobody: true)
        #expect(status == 73)
        #expect(stderr.contains("storage directory \(storage)") && stderr.contains("not writable"), "\(stderr)")
    }

    @Test func aForeignDatabaseIsRefusedAndACorruptOneToo() async throws {
        let directory = try temporaryDirectory("foreigndb")
        try FileManager.default.createDirectory(atPath: "\(directory)/data", withIntermediateDirectories: true)
        let made = try runCommand(
            "/usr/bin/python3",
            [
                "-c",
                """
                import sqlite3; c = sqlite3.connect('\(directory)/data/wearbridge.sqlite'); c.execute('create table moz_places (id)'); c.commit()
                """,
            ]
        )
        #expect(made.status == 0)
        let path = try config(
            directory,
            "[storage]\ndirectory = \"\(directory)/data\"\n[control]\nsocket = \"\(directory)/c.sock\"\n"
        )
        let (status, stderr) = try await refusal(["run", "--config", path])
        #expect(status == 65)
        #expect(stderr.contains("belongs to another program") && stderr.contains("moz_places"), "\(stderr)")
        let listing = try runCommand(Command.wearbridge, ["sessions", "--storage", "\(directory)/data"])
        #expect(listing.status == 65 && listing.err.contains("belongs to another program"), "\(listing.err)")

        try Data(repeating: 0x5a, count: 4096).write(to: URL(fileURLWithPath: "\(directory)/data/wearbridge.sqlite"))
        let (status2, stderr2) = try await refusal(["run", "--config", path])
        #expect(status2 == 65 && stderr2.contains("corrupt or not SQLite"), "\(stderr2)")
    }

    @Test func readyComesWithoutGPSDAndSIGTERMLeavesTheSessionResumable() async throws {
        try await withProcessScope { scope in
            let directory = try temporaryDirectory("ready")
            let notify = try NotifyListener(path: "\(directory)/notify.sock")
            let daemon = try DaemonUnderTest(
                directory: directory,
                gpsdPort: Loopback.freePort(),
                autostart: false,
                scope: scope
            )
            var environment = ProcessInfo.processInfo.environment
            environment["NOTIFY_SOCKET"] = notify.path
            environment["WATCHDOG_USEC"] = "2000000"
            try await daemon.start(environment: environment)
            let ready = notify.wait(for: "READY=1", timeout: 10)
            #expect(ready != nil, "no READY=1 although gpsd is absent")
            #expect(notify.wait(for: "WATCHDOG=1", timeout: 5) != nil, "watchdog pings from the main loop")

            // A second daemon on the same control socket is refused, and the first carries on.
            let second = try ChildProcess(
                Command.wearbridge,
                ["run", "--config", daemon.configPath],
                directory: directory,
                name: "second",
                scope: scope
            )
            #expect(await second.wait(timeout: 20) == 73)
            #expect(second.stderr.contains("is in use"), "\(second.stderr)")

            let start = try daemon.ctl("start", "--id", "cmd-1", "--activity", "walking")
            #expect(start.status == 0, "\(start.out)")
            let startAgain = try daemon.ctl("start", "--id", "cmd-1")
            #expect(startAgain.out == start.out, "a retried id gets the same answer")
            #expect(try daemon.ctl("start").status == 1, "a new start while active is refused")
            let status = try daemon.status()
            #expect(status["state"] as? String == "active" && status["activity"] as? String == "walking")
            #expect((status["gps"] as? [String: Any])?["gpsd_connected"] as? Bool == false)

            daemon.child?.signal(SIGTERM)
            #expect(notify.wait(for: "STOPPING=1", timeout: 10) != nil)
            #expect(await daemon.child?.wait(timeout: 10) == 0)
            let sessions = try daemon.sessions()
            #expect(sessions.count == 1 && sessions.first?["state"] as? String == "active", "left resumable")

            try await daemon.start()
            let resumed = try daemon.status()
            #expect(resumed["session_id"] as? String == sessions.first?["id"] as? String)
            let startThird = try daemon.ctl("start", "--id", "cmd-1")
            #expect(startThird.out == start.out, "a retried id is answered after a restart too")
            await daemon.stop()
        }
    }

    @Test func garbageOnTheLiveControlSocketGetsErrorsAndTheDaemonCarriesOn() async throws {
        try await withProcessScope { scope in
            let directory = try temporaryDirectory("garbage")
            let daemon = try DaemonUnderTest(
                directory: directory,
                gpsdPort: Loopback.freePort(),
                autostart: false,
                scope: scope
            )
            try await daemon.start()
            let script = """
                import socket, json
                s = socket.socket(socket.AF_UNIX); s.connect('\(daemon.socketPath)'); s.settimeout(5)
                s.sendall(b'garbage\\n\\x00\\xff\\xfe\\n{"command":"start"}\\n{"command":"start","id":"g","activity":"rowing"}\\n')
                f = s.makefile('rb')
                print(json.dumps([json.loads(f.readline()) for _ in range(4)]))
                t = socket.socket(socket.AF_UNIX); t.connect('\(daemon.socketPath)'); t.settimeout(5)
                t.sendall(b'x' * 3000000 + b'\\n')
                print(t.makefile('rb').readline().decode().strip())
                """
            let result = try runCommand("/usr/bin/python3", ["-c", script])
            let lines = result.out.split(separator: "\n")
            try #require(lines.count == 2, "\(result.out) \(result.err)")
            let replies = try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [[String: Any]] ?? []
            #expect(replies.count == 4 && replies.allSatisfy { $0["ok"] as? Bool == false })
            #expect((replies[2]["error"] as? String)?.contains("needs an \"id\"") == true)
            #expect((replies[3]["error"] as? String)?.contains("rowing") == true)
            #expect(lines[1].contains("longer than 4096"))
            #expect(try daemon.ctl("status").status == 0, "still serving")
            #expect(try daemon.status()["state"] as? String == "idle")
            await daemon.stop()
        }
    }

    /// A configured strap on a machine without Bluetooth (this one): the daemon logs why, keeps
    /// retrying quietly, records GPS as ever and shows the strap as searching.
    @Test func aStrapThatCannotBeReachedNeverStopsTheDaemon() async throws {
        try await withProcessScope { scope in
            let directory = try temporaryDirectory("nostrap")
            let daemon = try DaemonUnderTest(
                directory: directory,
                gpsdPort: Loopback.freePort(),
                extra: "[strap]\naddress = \"F1:F1:F1:F1:F1:F1\"\nadapter = \"hci7\"",
                autostart: false,
                scope: scope
            )
            try await daemon.start()
            #expect(try daemon.ctl("start").status == 0)
            try await Task.sleep(for: .seconds(2))
            let heartRate = try daemon.status()["heart_rate"] as? [String: Any]
            #expect(heartRate?["link"] as? String == "searching" && heartRate?["beats"] as? Int == 0)
            let text = try runCommand(Command.wearbridge, ["ctl", "status", "--socket", daemon.socketPath]).out
            #expect(text.contains("strap     searching"), "\(text)")
            #expect(try daemon.ctl("end").status == 0)
            await daemon.stop()
            let log = daemon.child?.stderr ?? ""
            #expect(log.contains("strap connection failed") && log.contains("no Bluetooth adapter hci7"), "\(log)")
            // Logged once then every 20th attempt, not at every retry.
            #expect(log.components(separatedBy: "strap connection failed").count - 1 == 1, "\(log)")
        }
    }

    /// The shipped unit, pointed at the built binary, passes systemd's own checks (its man page is the
    /// package's: scripts/build/package.sh makes it, and the virtual wearable boots with it).
    @Test func theSystemdUnitVerifies() throws {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let unit = try String(
            contentsOf: repository.appendingPathComponent("systemd/wearbridge.service"),
            encoding: .utf8
        )
        for line in [
            "Type=notify", "WatchdogSec=", "StateDirectory=wearbridge", "RuntimeDirectory=wearbridge",
            "RestartPreventExitStatus=78 65", "KillSignal=SIGTERM",
        ] {
            #expect(unit.contains(line), "\(line)")
        }
        let directory = try temporaryDirectory("unit")
        let local = unit.replacingOccurrences(of: "/usr/bin/wearbridge", with: Command.wearbridge)
        try local.write(toFile: "\(directory)/wearbridge.service", atomically: true, encoding: .utf8)
        let verify = try runCommand(
            "/usr/bin/systemd-analyze",
            ["verify", "--man=no", "\(directory)/wearbridge.service"]
        )
        let problems = (verify.out + verify.err).split(separator: "\n").filter { $0.contains("wearbridge.service") }
        #expect(verify.status == 0 && problems.isEmpty, "\(verify.out)\(verify.err)")
    }

    /// The units' sandboxes stay as tight as they are (systemd/README.md): systemd's own
    /// score, offline, at most 2.0 for the daemon and 1.2 for the phone. The virtual wearable measures
    /// the same inside the guest, with everything working under it.
    @Test(arguments: [("wearbridge.service", 2.0), ("wearbridge-phone.service", 1.2)])
    func theUnitsExposureStaysWithinItsBudget(unit: String, budget: Double) throws {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let analysis = try runCommand(
            "/usr/bin/systemd-analyze",
            ["security", "--offline=yes", "--no-pager", repository.appendingPathComponent("systemd/\(unit)").path]
        )
        let line = (analysis.out + analysis.err).split(separator: "\n").first { $0.contains("Overall exposure level") }
        let score = line.flatMap { $0.split(separator: ":").last?.split(separator: " ").first }.flatMap { Double($0) }
        #expect(score != nil && score! <= budget, "\(unit): \(analysis.out)\(analysis.err)")
    }

    /// The phone-role peer's unit, pointed at the built binary, passes systemd's own checks too.
    @Test func thePhoneUnitVerifies() throws {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let unit = try String(
            contentsOf: repository.appendingPathComponent("systemd/wearbridge-phone.service"),
            encoding: .utf8
        )
        for line in ["StateDirectory=wearbridge-phone", "RestartPreventExitStatus=78", "KillSignal=SIGTERM"] {
            #expect(unit.contains(line), "\(line)")
        }
        let phoneBinary = (Command.wearbridge as NSString).deletingLastPathComponent + "/wearbridge-phone"
        let directory = try temporaryDirectory("phone-unit")
        let local = unit.replacingOccurrences(of: "/usr/bin/wearbridge-phone", with: phoneBinary)
        try local.write(toFile: "\(directory)/wearbridge-phone.service", atomically: true, encoding: .utf8)
        let verify = try runCommand(
            "/usr/bin/systemd-analyze",
            ["verify", "--man=no", "\(directory)/wearbridge-phone.service"]
        )
        let problems = (verify.out + verify.err).split(separator: "\n").filter {
            $0.contains("wearbridge-phone.service")
        }
        #expect(verify.status == 0 && problems.isEmpty, "\(verify.out)\(verify.err)")
    }
}
