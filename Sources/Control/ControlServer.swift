import GPSD
import Logging
import NIOCore
import NIOPosix

/// The control socket: accepts connections, reads one request per line, answers each in order.
///
/// A bad request gets an error reply and the connection stays; an oversized one gets an error
/// reply and the connection is closed, since what follows it cannot be trusted to be a new line.
public struct ControlServer: Sendable {
    public typealias Handler = @Sendable (ControlRequest) async -> ControlReply

    private let channel: NIOAsyncChannel<NIOAsyncChannel<ByteBuffer, ByteBuffer>, Never>
    public let path: String
    private let logger: Logger

    /// Binds now, so that READY=1 can follow; `serve` runs the accept loop.
    public static func bind(path: String, group: String?, logger: Logger) async throws -> ControlServer {
        try UnixSocketPath.claim(path)
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.backlog, value: 16)
            .bind(unixDomainSocketPath: path, cleanupExistingSocketFile: false) { child in
                child.eventLoop.makeCompletedFuture {
                    try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: child)
                }
            }
        do {
            try UnixSocketPath.restrict(path, group: group)
        } catch {
            try? await channel.channel.close()
            throw error
        }
        return ControlServer(channel: channel, path: path, logger: logger)
    }

    /// Serves until the task is cancelled; each connection on a child task.
    public func serve(_ handler: @escaping Handler) async throws {
        try await withThrowingDiscardingTaskGroup { group in
            try await channel.executeThenClose { inbound in
                for try await connection in inbound {
                    group.addTask { await serve(connection, handler) }
                }
            }
        }
    }

    private func serve(_ connection: NIOAsyncChannel<ByteBuffer, ByteBuffer>, _ handler: Handler) async {
        do {
            try await connection.executeThenClose { inbound, outbound in
                var framer = LineFramer(maxLineLength: ControlCodec.maxRequestLength)
                for try await buffer in inbound {
                    framer.append(buffer.readableBytesView)
                    while let frame = framer.next() {
                        switch frame {
                        case .oversized(let count):
                            logger.warning("control request too long", metadata: ["bytes": "\(count)"])
                            let reply = ControlReply.failure("request longer than \(ControlCodec.maxRequestLength) bytes")
                            try await outbound.write(ByteBuffer(bytes: ControlCodec.encode(reply)))
                            return
                        case .line(let line):
                            guard line.contains(where: { $0 != 0x20 && $0 != 0x09 }) else { continue }
                            let reply: ControlReply
                            switch ControlCodec.decodeRequest(line) {
                            case .success(let request): reply = await handler(request)
                            case .failure(let error):
                                logger.warning("bad control request", metadata: ["error": "\(error)"])
                                reply = .failure(error.description)
                            }
                            try await outbound.write(ByteBuffer(bytes: ControlCodec.encode(reply)))
                        }
                    }
                }
                // The peer ended its side; an oversized tail still gets its answer.
                if case .oversized = framer.finish() {
                    let reply = ControlReply.failure("request longer than \(ControlCodec.maxRequestLength) bytes")
                    try await outbound.write(ByteBuffer(bytes: ControlCodec.encode(reply)))
                }
            }
        } catch {
            logger.debug("control connection ended", metadata: ["error": "\(error)"])
        }
    }
}
