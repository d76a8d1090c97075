#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A `sockaddr_un` built once, right: a filesystem path, or `@name` in Linux's abstract namespace
/// (a leading NUL byte, no terminator, as systemd's `NOTIFY_SOCKET` may be).
public struct UnixSocketAddress: Sendable {
    public let path: String
    private let bytes: [UInt8]

    /// Nil when the path does not fit `sun_path` (108 bytes on Linux, terminator included).
    public init?(path: String) {
        var bytes = Array(path.utf8)
        if bytes.first == UInt8(ascii: "@") { bytes[0] = 0 }
        guard !bytes.isEmpty, bytes.count < MemoryLayout.size(ofValue: sockaddr_un().sun_path) else { return nil }
        self.path = path
        self.bytes = bytes
    }

    public var isAbstract: Bool { bytes.first == 0 }

    /// Calls `body` with the address and its length as bind(2), connect(2) and sendto(2) take them.
    public func withSockAddr<T>(_ body: (UnsafePointer<sockaddr>, socklen_t) throws -> T) rethrows -> T {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        // An abstract name is exactly its bytes; a path carries its terminating NUL.
        let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + (isAbstract ? 0 : 1))
        return try withUnsafePointer(to: &address) {
            try $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { try body($0, length) }
        }
    }
}
