import Daemon
import Foundation
import GPSDLink
import Logging
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A datagram socket standing in for systemd's notify socket.
final class NotifySocket {
    let path: String
    let fd: Int32

    init(directory: String) throws {
        path = "\(directory)/notify.sock"
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0 else { throw POSIXError(.EADDRINUSE) }
        var timeout = timeval(tv_sec: 0, tv_usec: 200_000)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    /// The next datagram, or nil after the receive timeout.
    func receive() -> String? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = recv(fd, &buffer, buffer.count, 0)
        return count > 0 ? String(decoding: buffer[0..<count], as: UTF8.self) : nil
    }

    /// Waits up to `timeout` for a datagram containing `text`.
    func wait(for text: String, timeout: Double) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let message = receive(), message.contains(text) { return message }
        }
        return nil
    }

    deinit { close(fd) }
}

@Suite("systemd notify, journald logging, backoff")
struct SystemdAndBackoffTests {
    @Test func notificationsReachTheNotifySocket() throws {
        let socket = try NotifySocket(directory: try temporaryDirectory("notify"))
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": socket.path, "WATCHDOG_USEC": "4000000"])
        #expect(notifier.watchdogInterval == 2)
        notifier.ready(status: "idle")
        #expect(socket.receive()?.contains("READY=1") == true)
        notifier.watchdog()
        #expect(socket.receive() == "WATCHDOG=1")
        // Outside systemd nothing is sent and nothing fails.
        #expect(SystemdNotifier(environment: [:]).send("READY=1") == false)
        // The watchdog is for another process: not ours to feed.
        #expect(SystemdNotifier(environment: ["WATCHDOG_USEC": "4000000", "WATCHDOG_PID": "1"]).watchdogInterval == nil)
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
