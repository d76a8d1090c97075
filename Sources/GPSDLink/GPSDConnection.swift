import GPSD
import Logging
import NIOCore
import NIOPosix

/// A live gpsd connection that never gives up: connect, `?WATCH`, read, and on any failure wait
/// (capped exponential backoff) and start again.
///
/// It reads on a task of its own and hands every report on at once, because gpsd drops clients
/// that read slowly; the engine's speed never holds the socket back.
public struct GPSDConnection: Sendable {
    public enum Endpoint: Sendable, Equatable, CustomStringConvertible {
        case tcp(host: String, port: Int)
        case unix(path: String)

        public var description: String {
            switch self {
            case .tcp(let host, let port): "\(host):\(port)"
            case .unix(let path): path
            }
        }
    }

    public static let watch = Array(#"?WATCH={"enable":true,"json":true};"#.utf8) + [UInt8(ascii: "\n")]

    public let endpoint: Endpoint
    private let logger: Logger
    private let backoff: ReconnectBackoff

    public init(endpoint: Endpoint, logger: Logger, backoff: ReconnectBackoff = ReconnectBackoff()) {
        self.endpoint = endpoint
        self.logger = logger
        self.backoff = backoff
    }

    /// Runs until cancelled, reporting to `emit`.
    public func run(_ emit: @escaping @Sendable (GPSDLinkEvent) async -> Void) async {
        var backoff = self.backoff
        while !Task.isCancelled {
            let outcome: String
            do {
                let delivered = try await session(emit)
                if delivered { backoff.reset() }
                outcome = "gpsd closed the connection"
            } catch is CancellationError {
                return
            } catch {
                outcome = "\(error)"
            }
            if Task.isCancelled { return }
            let delay = backoff.nextDelay()
            if backoff.shouldReport {
                logger.warning(
                    "gpsd unavailable, retrying",
                    metadata: ["gpsd": "\(endpoint)", "error": "\(outcome)", "retry_s": "\(delay)", "attempt": "\(backoff.failures)"])
            } else {
                logger.debug("gpsd still unavailable", metadata: ["gpsd": "\(endpoint)", "error": "\(outcome)"])
            }
            await emit(.disconnected(reason: outcome))
            do {
                try await Task.sleep(for: .milliseconds(Int(delay * 1000)))
            } catch {
                return
            }
        }
    }

    /// One connection, until it ends; true if any report came through it.
    private func session(_ emit: @escaping @Sendable (GPSDLinkEvent) async -> Void) async throws -> Bool {
        let channel = try await connect()
        return try await channel.executeThenClose { inbound, outbound in
            try await outbound.write(ByteBuffer(bytes: Self.watch))
            logger.info("connected to gpsd", metadata: ["gpsd": "\(endpoint)"])
            await emit(.connected(endpoint: endpoint.description))
            var framer = LineFramer()
            let decoder = GPSDDecoder()
            var lines = 0
            var delivered = false
            for try await buffer in inbound {
                let receivedAt = MonotonicClock.now()
                framer.append(buffer.readableBytesView)
                while let frame = framer.next() {
                    lines += 1
                    switch frame {
                    case .oversized(let count):
                        await emit(.malformed(reason: "line longer than \(framer.maxLineLength) bytes (\(count) dropped)", line: lines))
                    case .line(let bytes):
                        guard bytes.contains(where: { $0 != 0x20 && $0 != 0x09 }) else { continue }
                        do {
                            let message = try decoder.decode(bytes)
                            delivered = true
                            await emit(.message(message, receivedAt: receivedAt))
                        } catch {
                            await emit(.malformed(reason: "\(error)", line: lines))
                        }
                    }
                }
            }
            return delivered
        }
    }

    private func connect() async throws -> NIOAsyncChannel<ByteBuffer, ByteBuffer> {
        let bootstrap = ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connectTimeout(.seconds(5))
        let wrap: @Sendable (Channel) -> EventLoopFuture<NIOAsyncChannel<ByteBuffer, ByteBuffer>> = { channel in
            channel.eventLoop.makeCompletedFuture {
                try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
            }
        }
        switch endpoint {
        case .tcp(let host, let port):
            return try await bootstrap.connect(host: host, port: port, channelInitializer: wrap)
        case .unix(let path):
            return try await bootstrap.connect(unixDomainSocketPath: path, channelInitializer: wrap)
        }
    }
}
