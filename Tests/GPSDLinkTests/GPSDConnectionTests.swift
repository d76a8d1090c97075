import Foundation
import GPSD
import GPSDLink
import Harness
import Logging
import Reconnection
import Testing

/// Collects what the link reports, from the event loop.
private final class Events: @unchecked Sendable {
    private let lock = NSLock()
    private var events: [GPSDLinkEvent] = []

    func append(_ event: GPSDLinkEvent) {
        lock.lock()
        events.append(event)
        lock.unlock()
    }

    var all: [GPSDLinkEvent] {
        lock.lock()
        defer { lock.unlock() }
        return events
    }
}

@Suite("gpsd link against a misbehaving gpsd", .serialized)
struct GPSDConnectionTests {
    /// A stand-in gpsd on a real socket: it checks our WATCH, sends a scripted stream (garbage
    /// included), hangs up, and does it again for the reconnect.
    @Test func garbageIsReportedWithLineNumbersAndTheLinkReconnects() async throws {
        try await withProcessScope { scope in
            let directory = try temporaryDirectory("link")
            let port = Loopback.freePort()
            let script = """
                import socket, sys
                s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                s.bind(('127.0.0.1', \(port))); s.listen(1)
                print('listening', flush=True)
                for round in range(2):
                    c, _ = s.accept()
                    watch = c.recv(1000)
                    assert watch.startswith(b'?WATCH={"enable":true,"json":true}'), watch
                    c.sendall(b'{"class":"VERSION","release":"3.22","proto_major":3,"proto_minor":14}\\r\\n')
                    c.sendall(b'this is not json\\r\\n')
                    c.sendall(b'{"class":"TPV","mode":3,"lat":"north"}\\r\\n')
                    c.sendall(b'{"class":"SKY","satellites":[]}\\r\\n')
                    c.sendall(b'x' * 100000 + b'\\r\\n')
                    c.sendall(b'{"class":"TPV","mode":3,"time":"2025-06-14T06:30:0%dZ","lat":51.5,"lon":-0.12}\\r\\n' % round)
                    c.sendall(b'{"class":"SKY","nSat":9,"uSat":7,"satellites":[]}\\r\\n')
                    c.sendall(b'\\x00\\xff\\xfe{"cla')
                    c.close()
                """
            let server = try ChildProcess(
                "/usr/bin/python3",
                ["-c", script],
                directory: directory,
                name: "fakegpsd",
                scope: scope
            )
            // Not probed with a connection: the stand-in serves exactly two.
            #expect(await eventually(timeout: 10) { server.stdout.contains("listening") })
            let events = Events()
            var logger = Logger(label: "test")
            logger.logLevel = .critical
            let link = GPSDConnection(
                endpoint: .tcp(host: "127.0.0.1", port: port),
                logger: logger,
                backoff: ReconnectBackoff(initial: 0.05, cap: 0.2)
            )
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { await link.run { events.append($0) } }
                let done = await eventually(timeout: 15) {
                    events.all.filter { if case .message(.tpv, _) = $0 { true } else { false } }.count >= 2
                }
                #expect(done, "\(events.all)")
                group.cancelAll()
            }
            let all = events.all
            let malformed = all.compactMap { event -> (String, Int)? in
                if case .malformed(let reason, let line) = event { return (reason, line) }
                return nil
            }
            // Per connection: line 2 not JSON, line 3 a bad field, line 5 too long; the tail without
            // newline is never a line. SKY is read before the receiver's first fix (it says why there
            // is none) and skipped unparsed once a fix came (line 7).
            try #require(malformed.map(\.1) == [2, 3, 5, 2, 3, 5], "\(malformed)")
            #expect(malformed[1].0.contains("lat"))
            #expect(malformed[2].0.contains("longer than"))
            let kinds = all.map { event -> String in
                switch event {
                case .connected: "connected"
                case .disconnected: "disconnected"
                case .message(.tpv, _): "tpv"
                case .message(.version, _): "version"
                case .message(.sky, _): "sky"
                case .message: "other"
                case .malformed: "malformed"
                }
            }
            #expect(kinds.filter { $0 == "connected" }.count == 2)
            #expect(kinds.contains("disconnected"))
            #expect(kinds.filter { $0 == "sky" }.count == 2, "one SKY per connection, the one before a fix: \(kinds)")
            #expect(!kinds.contains("other"))
            #expect(server.stderr.isEmpty, "the fake gpsd saw a proper WATCH: \(server.stderr)")
        }
    }

    @Test func gpsdOnAUnixSocketIsReadToo() async throws {
        try await withProcessScope { scope in
            let directory = try temporaryDirectory("unixgpsd")
            let path = "\(directory)/gpsd.sock"
            let script = """
                import socket
                s = socket.socket(socket.AF_UNIX); s.bind('\(path)'); s.listen(1)
                print('listening', flush=True)
                c, _ = s.accept(); c.recv(1000)
                c.sendall(b'{"class":"TPV","mode":3,"time":"2025-06-14T06:30:00Z","lat":51.5,"lon":-0.12}\\n')
                c.recv(1000)
                """
            let server = try ChildProcess(
                "/usr/bin/python3",
                ["-c", script],
                directory: directory,
                name: "unixgpsd",
                scope: scope
            )
            #expect(await eventually(timeout: 10) { server.stdout.contains("listening") })
            let events = Events()
            let link = GPSDConnection(endpoint: .unix(path: path), logger: Logger(label: "test"))
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await link.run { events.append($0) } }
                #expect(
                    await eventually(timeout: 10) {
                        events.all.contains {
                            if case .message(.tpv(let tpv), _) = $0 { tpv.latitude == 51.5 } else { false }
                        }
                    }
                )
                group.cancelAll()
            }
        }
    }
}
