import Control
import ControlProtocol
import Foundation
import Harness
import Logging
import NIOCore
import Testing
import UnixSockets

#if canImport(Glibc)
import Glibc
#endif

/// Sends raw bytes on a Unix socket and reads reply lines, as a misbehaving client would.
/// The exchange on a thread of its own: its recv blocks, and on a two-core machine a blocked
/// cooperative thread can be the one the server needs to answer (a flake seen under load).
private func exchange(_ path: String, _ bytes: [UInt8], replies: Int) async throws -> [[String: Any]] {
    let lines = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<[Data], any Error>) in
        DispatchQueue.global().async {
            continuation.resume(with: Result { try blockingExchange(path, bytes, replies: replies) })
        }
    }
    return lines.compactMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }
}

private func blockingExchange(_ path: String, _ bytes: [UInt8], replies: Int) throws -> [Data] {
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    guard let address = UnixSocketAddress(path: path), address.withSockAddr({ connect(fd, $0, $1) }) == 0 else {
        throw POSIXError(.ECONNREFUSED)
    }
    // A guard against a hang, not a deadline: the whole parallel test run on two cores, with the
    // arm64 builds beside it, has stalled every suite for 9 s at once (a flake seen in CI).
    var timeout = timeval(tv_sec: 30, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    var received: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while received.filter({ $0 == 10 }).count < replies {
        let count = recv(fd, &buffer, buffer.count, 0)
        guard count > 0 else { break }
        received += buffer[0..<count]
    }
    return received.split(separator: 10).map { Data($0) }
}

/// `count` connections, each sending a garbage line, left open.
private func openFlood(_ path: String, count: Int) throws -> [Int32] {
    var sockets: [Int32] = []
    for _ in 0..<count {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard let address = UnixSocketAddress(path: path), address.withSockAddr({ connect(fd, $0, $1) }) == 0 else {
            close(fd)
            continue
        }
        let garbage = Array("not a request\n".utf8)
        _ = garbage.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        sockets.append(fd)
    }
    return sockets
}

@Suite("Control socket", .serialized)
struct ControlServerTests {
    private let logger = Logger(label: "test")

    private func withServer(_ body: (String) async throws -> Void) async throws {
        let directory = try temporaryDirectory("ctl")
        let path = "\(directory)/control.sock"
        let server = try await ControlServer.bind(path: path, group: nil, logger: logger)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                await server.serve { request in
                    ControlReply(ok: true, id: request.id, command: request.command.rawValue, state: "idle")
                }
            }
            defer { server.shutdown() }
            try await body(path)
        }
    }

    @Test func garbageGetsAnErrorReplyAndTheConnectionCarriesOn() async throws {
        try await withServer { path in
            var info = stat()
            stat(path, &info)
            #expect(info.st_mode & 0o777 == 0o660)
            let input =
                Array("this is not json\n[1,2]\n{\"command\":\"fly\",\"id\":\"x\"}\n{\"id\":\"x\"}\n".utf8)
                + [0xff, 0xfe, 0x00, 0x0a] + Array("{\"command\":\"status\"}\n".utf8)
            let replies = try await exchange(path, input, replies: 6)
            try #require(replies.count == 6)
            #expect(
                replies[0]["ok"] as? Bool == false && (replies[0]["error"] as? String)?.contains("JSON object") == true
            )
            #expect(replies[1]["ok"] as? Bool == false)
            #expect((replies[2]["error"] as? String)?.contains("fly") == true)
            #expect((replies[3]["error"] as? String)?.contains("command") == true)
            #expect(replies[4]["ok"] as? Bool == false)
            #expect(replies[5]["ok"] as? Bool == true && replies[5]["command"] as? String == "status")
        }
    }

    @Test func anOversizedRequestIsRefusedWithoutBufferingIt() async throws {
        try await withServer { path in
            let huge = [UInt8](repeating: UInt8(ascii: "a"), count: 1 << 20) + [10]
            let replies = try await exchange(path, huge, replies: 1)
            #expect((replies.first?["error"] as? String)?.contains("longer than 4096") == true)
            // The server is still there for the next client.
            let next = try await exchange(path, Array("{\"command\":\"status\"}\n".utf8), replies: 1)
            #expect(next.first?["ok"] as? Bool == true)
        }
    }

    @Test func aSocketInUseIsRefusedAndAStaleOneIsReclaimed() async throws {
        try await withServer { path in
            await #expect(throws: ControlSocketError.inUse(path: path)) {
                _ = try await ControlServer.bind(path: path, group: nil, logger: logger)
            }
        }
        // The server above is gone but its socket file stays, as after kill -9: reclaimed.
        let directory = try temporaryDirectory("stale")
        let path = "\(directory)/control.sock"
        let first = try await ControlServer.bind(path: path, group: nil, logger: logger)
        await first.close()
        let stale = try temporaryDirectory("stale2") + "/s.sock"
        let made = try runCommand(
            "/usr/bin/python3",
            ["-c", "import socket; s = socket.socket(socket.AF_UNIX); s.bind('\(stale)')"]
        )
        #expect(made.status == 0)
        let reclaimed = try await ControlServer.bind(path: stale, group: nil, logger: logger)
        #expect(reclaimed.path == stale)
        await reclaimed.close()
        let notSocket = try temporaryDirectory("plain") + "/file"
        FileManager.default.createFile(atPath: notSocket, contents: Data("keep me".utf8))
        await #expect(throws: ControlSocketError.notASocket(path: notSocket)) {
            _ = try await ControlServer.bind(path: notSocket, group: nil, logger: logger)
        }
        #expect(FileManager.default.contents(atPath: notSocket) == Data("keep me".utf8))
        await #expect(throws: ControlSocketError.unknownGroup("no-such-group-wb")) {
            _ = try await ControlServer.bind(path: "\(directory)/g.sock", group: "no-such-group-wb", logger: logger)
        }
    }

    @Test func theSocketGoesToTheConfiguredGroup() async throws {
        // Root may give the socket to any group (Debian always has "daemon"); anyone else to their own.
        guard let entry = getuid() == 0 ? getgrnam("daemon") : getgrgid(getgid()) else {
            Issue.record("no group to test with")
            return
        }
        let group = String(cString: entry.pointee.gr_name)
        let path = try temporaryDirectory("group") + "/control.sock"
        let server = try await ControlServer.bind(path: path, group: group, logger: logger)
        var info = stat()
        stat(path, &info)
        #expect(info.st_gid == entry.pointee.gr_gid)
        #expect(info.st_mode & 0o777 == 0o660)
        await server.close()
    }

    /// A local user opening hundreds of connections and sending garbage on them: the socket holds
    /// at most its cap, the journal gets one line per interval, and `ctl status` still answers.
    @Test func aFloodOfConnectionsAndGarbageIsBoundedAndStatusStillAnswers() async throws {
        let records = LogRecords()
        let directory = try temporaryDirectory("flood")
        let path = "\(directory)/control.sock"
        let server = try await ControlServer.bind(
            path: path,
            group: nil,
            limits: .init(capacity: 8, grace: 0.2),
            logger: records.logger()
        )
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                await server.serve { request in
                    ControlReply(ok: true, id: request.id, command: request.command.rawValue, state: "idle")
                }
            }
            defer { server.shutdown() }
            // 300 connections held open, each sending a garbage line: most are refused or displaced.
            let flood = try await withCheckedThrowingContinuation {
                (continuation: CheckedContinuation<[Int32], any Error>) in
                DispatchQueue.global().async {
                    continuation.resume(with: Result { try openFlood(path, count: 300) })
                }
            }
            defer { for fd in flood { close(fd) } }
            try await Task.sleep(for: .milliseconds(500))
            let counters = server.counters
            #expect(counters.held <= 8, "held \(counters.held)")
            #expect(counters.refused + counters.displaced >= 292)
            let status = try await exchange(path, Array("{\"command\":\"status\"}\n".utf8), replies: 1)
            #expect(status.first?["ok"] as? Bool == true)
            let warnings = records.all.filter { $0.level == .warning }
            #expect(warnings.count <= 2, "\(warnings.map(\.message))")
            #expect(server.counters.warningsSuppressed > 0)
        }
    }

    @Test func theClientSaysWhenNobodyListens() async throws {
        let path = try temporaryDirectory("none") + "/control.sock"
        await #expect(throws: ControlSocketError.notRunning(path: path)) {
            _ = try await ControlClient(path: path).send(ControlRequest(command: .status))
        }
    }
}
