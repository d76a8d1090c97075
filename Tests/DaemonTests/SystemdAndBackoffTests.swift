import ATT
import Bluetooth
import Foundation
import GPSDLink
import Harness
import JournalLog
import Logging
import Reconnection
import Testing
import UnixSockets

@testable import Daemon

#if canImport(Glibc)
import Glibc
#endif

@Suite("systemd notify, journald logging, backoff")
struct SystemdAndBackoffTests {
    @Test func notificationsReachTheNotifySocket() throws {
        let socket = try NotifyListener(path: try temporaryDirectory("notify") + "/notify.sock")
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": socket.path, "WATCHDOG_USEC": "4000000"])
        #expect(notifier.watchdogInterval == 2)
        notifier.ready(status: "idle")
        #expect(socket.receive()?.contains("READY=1") == true)
        notifier.watchdog()
        #expect(socket.receive() == "WATCHDOG=1")
        // Outside systemd nothing is sent and nothing fails.
        #expect(SystemdNotifier(environment: [:]).send("READY=1") == false)
        // The watchdog is for another process: not ours to feed.
        #expect(
            SystemdNotifier(environment: ["WATCHDOG_USEC": "4000000", "WATCHDOG_PID": "1"]).watchdogInterval == nil
        )
    }

    @Test func journaldGetsSyslogPrioritiesAndNoColours() {
        #expect(JournalLogHandler.priorityPrefix(.error) == "<3>")
        #expect(JournalLogHandler.priorityPrefix(.warning) == "<4>")
        #expect(JournalLogHandler.priorityPrefix(.info) == "<6>")
        #expect(JournalLogHandler.priorityPrefix(.debug) == "<7>")
    }

    @Test func backoffDoublesToItsCapAndNeverGivesUp() {
        var backoff = ReconnectBackoff(initial: 0.25, cap: 15)
        let delays = (0..<12).map { _ in backoff.nextDelay() }
        #expect(delays.prefix(7) == [0.25, 0.5, 1, 2, 4, 8, 15])
        #expect(delays.dropFirst(6).allSatisfy { $0 == 15 })
        #expect(backoff.failures == 12)
        backoff.reset()
        #expect(backoff.nextDelay() == 0.25)
    }
}

@Suite("Remembered strap")
struct RememberedStrapTests {
    @Test func theFirstSeenStrapIsRememberedAndAnUnreadableFileIsSaidAndIgnored() throws {
        let directory = try temporaryDirectory("remember")
        let memory = RememberedStrap(directory: directory)
        #expect(memory.load().address == nil && memory.load().problem == nil, "nothing remembered yet")
        let strap = try #require(BluetoothAddress("A0:9E:1A:12:34:56", kind: .public))
        try memory.save(strap)
        #expect(memory.load().address == strap)
        #expect(try String(contentsOfFile: "\(directory)/strap", encoding: .utf8) == "A0:9E:1A:12:34:56 public\n")
        for garbage in ["", "A0:9E:1A:12:34:56", "A0:9E:1A:12:34:56 static", "zz random", "\u{0}\u{1}binary"] {
            try garbage.write(toFile: "\(directory)/strap", atomically: true, encoding: .utf8)
            let (address, problem) = memory.load()
            #expect(address == nil && problem?.contains("not \"ADDRESS random|public\"") == true, "\(garbage)")
        }
    }
}

@Suite("Remembered strap: failures")
struct RememberedStrapFailureTests {
    /// The review found `save` ignoring a failed rename and the daemon logging the strap as
    /// remembered: a directory where the file belongs makes the rename fail, and that must throw,
    /// naming the file and the reason, leaving no temporary file behind.
    @Test func aRenameThatFailsIsAnErrorNotARememberedStrap() throws {
        let directory = try temporaryDirectory("remember-fail")
        try FileManager.default.createDirectory(
            atPath: "\(directory)/strap/occupied",
            withIntermediateDirectories: true
        )
        let memory = RememberedStrap(directory: directory)
        let strap = try #require(BluetoothAddress("A0:9E:1A:12:34:56", kind: .random))
        do {
            try memory.save(strap)
            Issue.record("save reported success although nothing was remembered")
        } catch {
            #expect(
                error.description.contains("\(directory)/strap") && error.description.contains("rename"),
                "\(error)"
            )
        }
        #expect(!FileManager.default.fileExists(atPath: "\(directory)/strap.tmp"))
        #expect(memory.load().address == nil)
    }
}

@Suite("Unix socket addresses")
struct UnixSocketAddressTests {
    /// One builder for every sockaddr_un: a path carries its NUL, an abstract name does not, and a
    /// path too long for sun_path is refused rather than cut.
    @Test func pathsAbstractNamesAndLengths() throws {
        let path = try #require(UnixSocketAddress(path: "/run/x.sock"))
        #expect(path.withSockAddr { $1 } == socklen_t(2 + 11 + 1) && !path.isAbstract)
        let abstract = try #require(UnixSocketAddress(path: "@wearbridge-test"))
        #expect(abstract.withSockAddr { $1 } == socklen_t(2 + 16) && abstract.isAbstract)
        #expect(UnixSocketAddress(path: "/" + String(repeating: "x", count: 107)) == nil)
        #expect(UnixSocketAddress(path: "") == nil)
        // systemd's abstract NOTIFY_SOCKET works end to end.
        let name = "@wbt-notify-\(getpid())"
        let listener = try NotifyListener(path: name)
        #expect(SystemdNotifier(environment: ["NOTIFY_SOCKET": name]).send("STATUS=abstract"))
        #expect(listener.receive() == "STATUS=abstract")
    }
}
