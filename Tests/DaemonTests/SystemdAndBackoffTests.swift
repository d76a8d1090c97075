import Bluetooth
import Foundation
import GPSDLink
import Harness
import Logging
import Testing

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
        #expect(DaemonLogHandler.priorityPrefix(.error) == "<3>")
        #expect(DaemonLogHandler.priorityPrefix(.warning) == "<4>")
        #expect(DaemonLogHandler.priorityPrefix(.info) == "<6>")
        #expect(DaemonLogHandler.priorityPrefix(.debug) == "<7>")
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
