import ControlProtocol
import LineFraming
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import ProcessClock

#if canImport(Glibc)
import Glibc
#endif

/// The control socket: accepts connections, reads one request per line, answers each in order.
///
/// A bad request gets an error reply and the connection stays; an oversized one gets an error
/// reply and the connection is closed, since what follows it cannot be trusted to be a new line.
/// What a local user can hold is bounded: connections by `ControlAdmission`, bytes per connection by
/// the line limit and a small read buffer, journal lines by `WarningBudget`.
public struct ControlServer: Sendable {
    public typealias Handler = @Sendable (ControlRequest) async -> ControlReply

    /// Accepted connections come as plain channels, wrapped once a task owns them: an async
    /// channel that NIO accepted during shutdown and nobody took would trap when dropped.
    private let channel: NIOAsyncChannel<Channel, Never>
    public let path: String
    private let logger: Logger
    private let gate: NIOLockedValueBox<Gate>

    /// The admission and warning state shared by every connection, with the channels to close when
    /// a newcomer displaces one.
    private struct Gate {
        var admission: ControlAdmission
        var warnings: WarningBudget
        var open: [Int: Channel] = [:]
        var nextID = 0
    }

    /// What the socket held off, for the flood test and the journal.
    public struct Counters: Sendable, Equatable {
        public var held: Int
        public var refused: Int
        public var displaced: Int
        public var warningsSuppressed: Int
    }

    /// Binds now, so that READY=1 can follow; `serve` runs the accept loop.
    public static func bind(
        path: String,
        group: String?,
        limits: ControlAdmission.Limits = .init(),
        warningInterval: Double = 60,
        logger: Logger
    ) async throws -> ControlServer {
        try UnixSocketPath.claim(path)
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.backlog, value: 16)
            .childChannelOption(.autoRead, value: false)
            // A request is one short line: small reads bound what an idle or flooding client holds.
            .childChannelOption(.recvAllocator, value: FixedSizeRecvByteBufferAllocator(capacity: 2048))
            .bind(unixDomainSocketPath: path, cleanupExistingSocketFile: false) { child in
                child.eventLoop.makeSucceededFuture(child)
            }
        do {
            try UnixSocketPath.restrict(path, group: group)
        } catch {
            try? await channel.channel.close()
            throw error
        }
        return ControlServer(
            channel: channel,
            path: path,
            logger: logger,
            gate: NIOLockedValueBox(
                Gate(admission: ControlAdmission(limits: limits), warnings: WarningBudget(interval: warningInterval))
            )
        )
    }

    public var counters: Counters {
        gate.withLockedValue {
            Counters(
                held: $0.admission.count,
                refused: $0.admission.refused,
                displaced: $0.admission.displaced,
                warningsSuppressed: $0.warnings.suppressed
            )
        }
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
        let client = await Self.peerUID(child)
        let (id, decision, displaced) = gate.withLockedValue { gate in
            gate.nextID += 1
            let id = gate.nextID
            let decision = gate.admission.arrive(id, client: client, at: MonotonicClock.now())
            var displaced: Channel?
            if case .admit(let victim) = decision {
                gate.open[id] = child
                if let victim { displaced = gate.open.removeValue(forKey: victim) }
            }
            return (id, decision, displaced)
        }
        displaced?.close(promise: nil)
        if decision == .refuse || displaced != nil {
            warn(
                client,
                decision == .refuse
                    ? "control socket full: a connection refused" : "control socket full: an idle connection closed",
                ["capacity": "\(gate.withLockedValue { $0.admission.limits.capacity })"]
            )
        }
        defer {
            gate.withLockedValue {
                $0.admission.left(id)
                $0.open[id] = nil
            }
        }
        do {
            let connection = try await child.eventLoop.submit {
                let wrapped = try NIOAsyncChannel<ByteBuffer, ByteBuffer>(
                    wrappingChannelSynchronously: child,
                    configuration: .init(backPressureStrategy: .init(lowWatermark: 1, highWatermark: 2))
                )
                try child.syncOptions?.setOption(.autoRead, value: true)
                return wrapped
            }.get()
            try await connection.executeThenClose { inbound, outbound in
                guard decision != .refuse else {
                    try await outbound.write(Self.busyReply)
                    return
                }
                var framer = LineFramer(maxLineLength: ControlCodec.maxRequestLength)
                for try await buffer in inbound {
                    framer.append(buffer.readableBytesView)
                    while let frame = framer.next() {
                        switch frame {
                        case .oversized(let count):
                            warn(client, "control request too long", ["bytes": "\(count)"])
                            try await outbound.write(Self.tooLongReply)
                            return
                        case .line(let line):
                            guard line.contains(where: { $0 != 0x20 && $0 != 0x09 }) else { continue }
                            gate.withLockedValue { $0.admission.busy(id) }
                            let reply: ControlReply
                            switch ControlCodec.decodeRequest(line) {
                            case .success(let request): reply = await handler(request)
                            case .failure(let error):
                                warn(client, "bad control request", ["error": "\(error)"])
                                reply = .failure(error.description)
                            }
                            try await outbound.write(ByteBuffer(bytes: ControlCodec.encode(reply)))
                            gate.withLockedValue { $0.admission.idle(id, at: MonotonicClock.now()) }
                        }
                    }
                }
                // The peer ended its side; an oversized tail still gets its answer.
                if case .oversized = framer.finish() {
                    try await outbound.write(Self.tooLongReply)
                }
            }
        } catch {
            logger.debug("control connection ended", metadata: ["error": "\(error)"])
        }
    }

    /// The answers a flood gets (connections past the cap, requests past the limit), encoded once:
    /// answering a flood builds nothing.
    private static let busyReply = ByteBuffer(
        bytes: ControlCodec.encode(ControlReply.failure("busy: the control socket is full; try again"))
    )
    private static let tooLongReply = ByteBuffer(
        bytes: ControlCodec.encode(ControlReply.failure("request longer than \(ControlCodec.maxRequestLength) bytes"))
    )

    /// A journal line for what a client did wrong, at most one per client per interval; the next
    /// says how many were held back.
    private func warn(_ client: UInt32, _ message: Logger.Message, _ metadata: Logger.Metadata) {
        guard let held = gate.withLockedValue({ $0.warnings.allow(client, at: MonotonicClock.now()) }) else { return }
        var metadata = metadata
        metadata["uid"] = "\(client)"
        if held > 0 { metadata["held_back"] = "\(held)" }
        logger.warning(message, metadata: metadata)
    }

    /// The connecting process's uid (SO_PEERCRED): a client, for admission and warnings. A peer
    /// whose credentials cannot be read counts as one unknown client.
    private static func peerUID(_ child: Channel) async -> UInt32 {
        #if os(Linux)
        guard let provider = child as? SocketOptionProvider else { return UInt32.max }
        let credentials: PeerCredentials? = try? await provider.unsafeGetSocketOption(
            level: SocketOptionLevel(SOL_SOCKET),
            name: SocketOptionName(SO_PEERCRED)
        ).get()
        return credentials?.uid ?? UInt32.max
        #else
        return UInt32.max
        #endif
    }
}

/// Linux's `struct ucred` (pid_t, uid_t, gid_t), which Glibc exposes only under _GNU_SOURCE.
private struct PeerCredentials: Sendable {
    var pid: Int32 = 0
    var uid: UInt32 = 0
    var gid: UInt32 = 0
}
