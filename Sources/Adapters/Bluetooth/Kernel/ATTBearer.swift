#if canImport(Glibc)
import Glibc
#endif

/// One ATT bearer: a SOCK_SEQPACKET descriptor where each read or write is exactly one PDU.
///
/// The kernel's L2CAP LE socket on CID 4 is one; a Unix socketpair is another, so tests speak
/// byte transcripts to the same code the daemon runs. Owns the descriptor; `close()` once.
public final class ATTBearer: @unchecked Sendable {
    // Sendable by discipline: used from one thread (the strap link's), closed by it.
    public let descriptor: Int32
    private var closed = false
    /// Largest PDU read: ATT's MTU tops out at 517.
    private static let readSize = 1024

    public init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit { close() }

    public func send(_ pdu: [UInt8]) throws(BearerError) {
        let written = pdu.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        guard written == pdu.count else { throw .failed("send", errno: written < 0 ? errno : 0) }
    }

    /// The next PDU, or nil when none came within `timeout` seconds.
    public func receive(timeout: Double) throws(BearerError) -> [UInt8]? {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN) | pollReadHangUp, revents: 0)
        let ready = poll(&poller, 1, Int32(max(0, min(timeout, 3600)) * 1000))
        if ready < 0 {
            if errno == EINTR { return nil }
            throw .failed("poll", errno: errno)
        }
        if ready == 0 { return nil }
        var buffer = [UInt8](repeating: 0, count: Self.readSize)
        let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        if count < 0 {
            if errno == EINTR || errno == EAGAIN { return nil }
            throw .failed("recv", errno: errno)
        }
        // Zero bytes is the end of the channel, unless it was an empty message (garbage, not a hang-up).
        if count == 0 && poller.revents & (Int16(POLLHUP) | pollReadHangUp) != 0 { throw .closed }
        return Array(buffer[0..<count])
    }

    public func close() {
        guard !closed else { return }
        closed = true
        _ = Glibc.close(descriptor)
    }
}

/// Why a bearer stopped.
public enum BearerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The peer closed the channel (or the link went down).
    case closed
    case failed(String, errno: Int32)

    public var description: String {
        switch self {
        case .closed: "link closed by the strap"
        case .failed(let call, let code): "\(call): \(String(cString: strerror(code)))"
        }
    }
}

/// POLLRDHUP: Glibc hides it behind _GNU_SOURCE.
private let pollReadHangUp: Int16 = 0x2000
