import CertificateFingerprint
import Foundation
import GRPCCore
import GRPCNIOTransportHTTP2
import Identity
import Logging
import PhoneCore
import PhoneLinkTLS
import ProcessClock
import ServiceLifecycle

/// `wearbridge-phone run` as a `Service`: the gRPC server over mutual TLS (wearables pinned by
/// fingerprint, keepalive pings permitted without calls), the inbox, the link's loop.
public struct PhoneServer: Service {
    let config: PhoneConfig
    let identity: NodeIdentity
    let inbox: Inbox
    /// The race's side of the link (partner figures, countdowns handed again); none without races.
    let races: (any RaceLink)?
    let logger: Logger
    /// The wall clock every shell of the server reads.
    let clock: WallClock
    public let counters = PhoneCounters()

    public init(
        config: PhoneConfig,
        identity: NodeIdentity,
        inbox: Inbox,
        races: (any RaceLink)?,
        logger: Logger,
        clock: WallClock
    ) {
        self.clock = clock
        self.config = config
        self.identity = identity
        self.inbox = inbox
        self.races = races
        self.logger = logger
    }

    public func run() async throws {
        var trusted: [Fingerprint: String] = [:]
        for wearable in config.wearables { trusted[wearable.fingerprint] = wearable.name }
        let pinning = PeerPinning(trusted: trusted, logger: logger)
        let inputs = PhoneInputs()
        let loop = PhoneLoop(
            core: PhoneCore(retryEvery: config.retryEvery),
            inbox: inbox,
            races: races,
            counters: counters,
            chunkRows: config.backfillChunkRows,
            logger: logger,
            clock: clock
        )
        let service = PhoneLinkService(inputs: inputs, wearables: trusted, logger: logger)
        let transport = HTTP2ServerTransport.Posix(
            address: .ipv4(host: config.listenAddress, port: config.port),
            transportSecurity: MutualTLS.server(identity, pinning: pinning),
            config: .defaults { config in
                config.connection.keepalive = .init(
                    time: .seconds(10),
                    timeout: .seconds(5),
                    clientBehavior: .init(minPingIntervalWithoutCalls: .seconds(5), allowWithoutCalls: true)
                )
                // A link message is tens of bytes: a frame claiming more than this is refused unread.
                config.rpc.maxRequestPayloadSize = 64 * 1024
            }
        )
        let server = GRPCServer(transport: transport, services: [service])
        let logger = self.logger
        let counters = self.counters
        // No wearable is connected before this server runs (a crash may have left rows saying so).
        try await inbox.link.markAllDisconnected()
        do {
            try await serve(server, transport, loop, inputs, logger)
        } catch is ServerEnded {
            // Every stream ended within the grace.
        } catch is ShutdownGraceElapsed {
            logger.notice("wearables' streams were still open 2 s after shutdown began: closed them")
        }
        logger.info("stopped", metadata: ["counters": "\(counters.summary)", "refused_peers": "\(pinning.refused)"])
    }

    /// A wearable's stream never ends by itself: shutdown begins gracefully, and after 2 s the
    /// streams still open are cancelled, so a stop or a restart takes seconds, not minutes.
    private struct ShutdownGraceElapsed: Error {}
    /// The server returned: the other tasks (the grace timer among them) end with it.
    private struct ServerEnded: Error {}

    private func serve(
        _ server: GRPCServer<HTTP2ServerTransport.Posix>,
        _ transport: HTTP2ServerTransport.Posix,
        _ loop: PhoneLoop,
        _ inputs: PhoneInputs,
        _ logger: Logger
    ) async throws {
        let config = self.config
        let identity = self.identity
        try await withThrowingDiscardingTaskGroup { group in
            group.addTask {
                try await server.serve()
                throw ServerEnded()
            }
            group.addTask {
                if let address = try await transport.listeningAddress.ipv4 {
                    logger.info(
                        "listening",
                        metadata: [
                            "address": "\(address.host):\(address.port)", "fingerprint": "\(identity.fingerprint)",
                            "wearables": "\(config.wearables.map(\.name))",
                        ]
                    )
                }
            }
            group.addTask {
                // The loop takes every stream's messages and the ticks, one at a time, until the
                // server is done; then whoever still waits for it hears that the stream ends.
                var loop = loop
                await loop.run(inputs)
            }
            group.addTask {
                await cancelWhenGracefulShutdown {
                    while !Task.isCancelled {
                        inputs.tick()
                        try? await Task.sleep(for: .seconds(PhoneCore.tickEvery))
                    }
                }
            }
            group.addTask {
                try await gracefulShutdown()
                server.beginGracefulShutdown()
                try await Task.sleep(for: .seconds(2))
                throw ShutdownGraceElapsed()
            }
        }
    }
}
