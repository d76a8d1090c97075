import Foundation
import GPSD
import GPSDLink
import Harness
import LineFraming
import ProcessClock

#if canImport(Glibc)
import Glibc
#endif

/// Sits between gpsd and the daemon and notes, on CLOCK_MONOTONIC, when each epoch's first TPV
/// was written to the daemon: the start of the latency the daemon's `--latency-trace` ends.
final class TPVProxy: @unchecked Sendable {
    let port: Int
    private let upstream: Int
    private let listener: Int32
    private let lock = NSLock()
    private var written: [Int: Double] = [:]

    init(upstreamPort: Int) throws {
        upstream = upstreamPort
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = Loopback.address(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        guard
            withUnsafePointer(
                to: &address,
                { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
            ) == 0,
            listen(fd, 4) == 0
        else { throw HarnessError("proxy cannot listen") }
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        listener = fd
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    /// Epoch (milliseconds) -> monotonic instant its first TPV was handed to the daemon.
    var firstWrites: [Int: Double] {
        lock.lock()
        defer { lock.unlock() }
        return written
    }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            guard client >= 0 else { return }
            let server = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = Loopback.address(port: upstream)
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(server, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard connected == 0 else {
                close(client)
                close(server)
                continue
            }
            Thread.detachNewThread { Self.copy(from: client, to: server, note: nil) }
            Thread.detachNewThread { [self] in Self.copy(from: server, to: client, note: note) }
        }
    }

    private func note(_ lines: [[UInt8]], at instant: Double) {
        lock.lock()
        defer { lock.unlock() }
        for line in lines {
            guard case .tpv(let tpv)? = try? GPSDDecoder().decode(line), let time = tpv.time else { continue }
            let key = Int((time.seconds * 1000).rounded())
            if written[key] == nil { written[key] = instant }
        }
    }

    private static func copy(from source: Int32, to target: Int32, note: (([[UInt8]], Double) -> Void)?) {
        var buffer = [UInt8](repeating: 0, count: 65536)
        var framer = LineFramer()
        while true {
            let count = read(source, &buffer, buffer.count)
            guard count > 0 else { break }
            var offset = 0
            while offset < count {
                let sent = buffer[offset..<count].withUnsafeBytes { write(target, $0.baseAddress, $0.count) }
                guard sent > 0 else { break }
                offset += sent
            }
            guard let note else { continue }
            let instant = MonotonicClock.now()
            framer.append(buffer[0..<count])
            var lines: [[UInt8]] = []
            while let frame = framer.next() { if case .line(let line) = frame { lines.append(line) } }
            note(lines, instant)
        }
        close(source)
        close(target)
    }
}
