import Foundation
import UnixSockets

#if canImport(Glibc)
import Glibc
#endif

/// A datagram socket standing in for systemd's NOTIFY_SOCKET.
public final class NotifyListener {
    public let path: String
    private let fd: Int32

    public init(path: String) throws {
        self.path = path
        unlink(path)
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        guard let address = UnixSocketAddress(path: path), address.withSockAddr({ bind(fd, $0, $1) }) == 0 else {
            throw HarnessError("cannot bind \(path)")
        }
        var timeout = timeval(tv_sec: 0, tv_usec: 100_000)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    /// The next datagram, or nil after the 100 ms receive timeout.
    public func receive() -> String? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = recv(fd, &buffer, buffer.count, 0)
        return count > 0 ? String(decoding: buffer[0..<count], as: UTF8.self) : nil
    }

    /// The first datagram containing `text` within `timeout` seconds.
    public func wait(for text: String, timeout: Double) -> String? {
        let deadline = Date().addingTimeInterval(Patience.guarding(timeout))
        while Date() < deadline {
            if let message = receive(), message.contains(text) { return message }
        }
        return nil
    }

    deinit {
        close(fd)
        unlink(path)
    }
}
