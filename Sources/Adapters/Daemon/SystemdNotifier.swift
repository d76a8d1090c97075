import UnixSockets

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// sd_notify(3) without libsystemd: one datagram to `$NOTIFY_SOCKET` per state change.
///
/// Outside systemd (no `NOTIFY_SOCKET`) every call does nothing, so the daemon runs the same by hand.
public struct SystemdNotifier: Sendable {
    public let socketPath: String?
    /// Half of `$WATCHDOG_USEC`, when systemd asks for pings (and they are meant for this process).
    public let watchdogInterval: Double?

    public init(environment: [String: String]) {
        socketPath = environment["NOTIFY_SOCKET"].flatMap { $0.isEmpty ? nil : $0 }
        var interval: Double?
        if let usec = environment["WATCHDOG_USEC"].flatMap(Double.init), usec > 0 {
            let pid = environment["WATCHDOG_PID"].flatMap(Int32.init)
            if pid == nil || pid == getpid() { interval = usec / 2e6 }
        }
        watchdogInterval = interval
    }

    public func ready(status: String) { send("READY=1\nSTATUS=\(status)\nMAINPID=\(getpid())") }
    public func watchdog() { send("WATCHDOG=1") }
    public func stopping() { send("STOPPING=1\nSTATUS=stopping") }
    public func status(_ text: String) { send("STATUS=\(text)") }

    /// Best effort, as sd_notify: a missing listener must not stop the daemon.
    @discardableResult
    public func send(_ message: String) -> Bool {
        guard let socketPath else { return false }
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        guard let address = UnixSocketAddress(path: socketPath) else { return false }
        let payload = Array(message.utf8)
        let sent = address.withSockAddr { address, length in
            payload.withUnsafeBytes { sendto(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL), address, length) }
        }
        return sent == payload.count
    }
}
