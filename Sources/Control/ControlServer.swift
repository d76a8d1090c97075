import LineFraming
import Logging
import NIOCore
import NIOPosix

/// The control socket: accepts connections, reads one request per line, answers each in order.
///
/// A bad request gets an error reply and the connection stays; an oversized one gets an error
/// reply and the connection is closed, since what follows it cannot be trusted to be a new line.
public struct ControlServer: Sendable {
    public typealias Handler = @Sendable (ControlRequest) async -> ControlReply

    /// Accepted connections come as plain channels, wrapped once a task owns them: an async
    /// channel that NIO accepted during shutdown and nobody took would trap when dropped.
    private let channel: NIOAsyncChannel<Channel, Never>
    public let path: String
    private let logger: Logger

    /// Binds now, so that READY=1 can follow; `serve` runs the accept loop.
    public static func bind(path: String, group: String?, logger: Logger) async throws -> ControlServer {
        try UnixSocketPath.claim(path)
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.backlog, value: 16)
            .childChannelOption(.autoRead, value: false)
            .bind(unixDomainSocketPath: path, cleanupExistingSocketFile: false) { child in
                child.eventLoop.makeSucceededFuture(child)
            }
        do {
            try UnixSocketPath.restrict(path, group: group)
        } catch {
            try? await channel.channel.close()
            throw error
        }
        return ControlServer(channel: channel, path: path, logger: logger)
    }

    /// Closes a socket that will not be served (start-up failed after the bind).
    public func close() async {
        shutdown()
        await serve { _ in .failure("shutting down") }
    }

    /// Serves until `shutdown`; each connection on a child task.
    ///
    /// Not to be ended by cancelling it: connections NIO has accepted but not yet handed over would
    /// be dropped unclosed. `shutdown` closes the listener, every accepted connection is taken and
    /// closed, and then this returns.
    public func serve(_ handler: @escaping Handler) async {
        await withDiscardingTaskGroup { group in
            do {
                try await channel.executeThenClose { inbound in
                    for try await connection in inbound {
                        group.addTask { await serve(connection, handler) }
                    }
                }
            } catch {
                logger.debug("control socket closed", metadata: ["error": "\(error)"])
            }
            group.cancelAll()
        }
    }

    /// Stops accepting; `serve` returns once the connections in hand are closed.
    public func shutdown() {
        channel.channel.close(promise: nil)
    }

    private func serve(_ child: Channel, _ handler: Handler) async {
        do {
            let connection = try await child.eventLoop.submit {
                let wrapped = try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: child)
                try child.syncOptions?.setOption(.autoRead, value: true)
                return wrapped
            }.get()
            try await connection.executeThenClose { inbound, outbound in
                var framer = LineFramer(maxLineLength: ControlCodec.maxRequestLength)
                for try await buffer in inbound {
                    framer.append(buffer.readableBytesView)
                    while let frame = framer.next() {
                        switch frame {
                        case .oversized(let count):
                            logger.warning("control request too long", metadata: ["bytes": "\(count)"])
                            let reply = ControlReply.failure(
                                "request longer than \(ControlCodec.maxRequestLength) bytes"
                            )
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
