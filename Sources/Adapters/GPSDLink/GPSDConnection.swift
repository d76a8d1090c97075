import GPSD
import Logging
import NIOCore
import NIOPosix
import Reconnection

/// A live gpsd connection that never gives up: connect, `?WATCH`, read, and on any failure wait
/// (capped exponential backoff) and start again.
///
/// It reads on the event loop and hands every report on at once (an unbounded stream), because
/// gpsd drops clients that read slowly; the engine's speed never holds the socket back.
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

    /// Runs until cancelled, reporting to `emit` (called on the event loop: it must not block).
    public func run(_ emit: @escaping @Sendable (GPSDLinkEvent) -> Void) async {
        let loop = ReconnectLoop(
            messages: .init(failed: "gpsd unavailable, retrying", ended: "gpsd connection ended, reconnecting"),
            peer: ["gpsd": "\(endpoint)"],
            backoff: backoff,
            logger: logger
        )
        await loop.run {
            let outcome: ReconnectLoop.Outcome
            do {
                let delivered = try await session(emit)
                outcome = ReconnectLoop.Outcome(delivered: delivered, reason: "gpsd closed the connection")
            } catch {
                outcome = ReconnectLoop.Outcome(delivered: false, reason: "\(error)")
            }
            if !Task.isCancelled { emit(.disconnected(reason: outcome.reason)) }
            return outcome
        }
    }

    /// One connection, until gpsd closes it or the task is cancelled; true if any report came.
    private func session(_ emit: @escaping @Sendable (GPSDLinkEvent) -> Void) async throws -> Bool {
        let handler = GPSDStreamHandler(endpoint: endpoint.description, emit: emit)
        let channel = try await connect(handler)
        logger.info("connected to gpsd", metadata: ["gpsd": "\(endpoint)"])
        try? await withTaskCancellationHandler {
            try await channel.closeFuture.get()
        } onCancel: {
            channel.close(promise: nil)
        }
        return try await channel.eventLoop.submit { handler.delivered }.get()
    }

    /// Classes the daemon does not use, told by gpsd's fixed `{"class":"X",` opening without a
    /// JSON parse. SKY alone is as large as all the rest and comes every epoch: it is read only
    /// while the receiver has no fix (`fixed` false), to say how many satellites it sees.
    static func isIgnored(_ line: [UInt8], fixed: Bool) -> Bool {
        if fixed, line.starts(with: skyPrefix) { return true }
        for prefix in ignoredPrefixes where line.starts(with: prefix) { return true }
        return false
    }

    private static let skyPrefix = Array(#"{"class":"SKY","#.utf8)
    private static let ignoredPrefixes = ["GST", "ATT", "PPS", "TOFF", "WATCH", "IMU", "RAW"].map {
        Array("{\"class\":\"\($0)\",".utf8)
    }

    private func connect(_ handler: GPSDStreamHandler) async throws -> Channel {
        let bootstrap = ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connectTimeout(.seconds(5))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(handler) }
            }
        switch endpoint {
        case .tcp(let host, let port):
            return try await bootstrap.connect(host: host, port: port).get()
        case .unix(let path):
            return try await bootstrap.connect(unixDomainSocketPath: path).get()
        }
    }
}
