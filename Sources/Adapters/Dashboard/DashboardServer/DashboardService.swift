import DashboardCore
import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import Identity
import Logging
import NIOSSL
import PhoneServer
import ProcessClock
import RelayClient
import ServiceLifecycle
import Synchronization

/// `[dashboard]` as a `Service` beside the phone's server: Hummingbird on loopback by default, or
/// beyond it with TLS (the phone's identity) and the pairing secret. It only reads the inbox and
/// queues commands as the CLI does, so a fault here never reaches the link: a port it cannot bind
/// is logged and the phone runs on without a dashboard.
public struct DashboardService: Service {
    let settings: PhoneConfig.Dashboard
    let config: PhoneConfig
    let identity: NodeIdentity
    let inbox: Inbox
    let relay: RelayEndpoint?
    let policy: AccessPolicy
    let logger: Logger
    let clock: WallClock

    /// Refuses (with the message to show) a configuration that would expose the dashboard unguarded.
    /// `relay`: the runner's way into the relay (`[relay]`), for the race panel's invite and accept.
    public init(
        config: PhoneConfig,
        identity: NodeIdentity,
        inbox: Inbox,
        relay: RelayEndpoint? = nil,
        logger: Logger,
        clock: WallClock
    ) throws(StartupRefusal) {
        self.clock = clock
        let pairing = PairingFile(directory: config.storageDirectory)
        let paired = ((try? pairing.digests()) ?? []).isEmpty == false
        switch AccessPolicy.check(listen: config.dashboard.listenAddress, tls: config.dashboard.tls, paired: paired) {
        case .success(let policy): self.policy = policy
        case .failure(let refusal): throw refusal
        }
        settings = config.dashboard
        self.config = config
        self.identity = identity
        self.inbox = inbox
        self.relay = relay
        var logger = logger
        logger[metadataKey: "component"] = "dashboard"
        self.logger = logger
    }

    public func run() async throws {
        let closing = ShutdownFlag()
        let streams = StreamCount()
        let limits = LinkLimits(staleAfter: config.staleAfter)
        let pairing = PairingFile(directory: config.storageDirectory)
        let routes = DashboardRoutes(
            inbox: inbox,
            clock: clock,
            wearables: config.wearables.map(\.name),
            limits: limits,
            commands: CommandRoutes(
                inbox: inbox,
                clock: clock,
                wearables: Set(config.wearables.map(\.name)),
                limits: limits,
                validFor: config.commandValidFor,
                deadline: config.commandDeadline,
                logger: logger
            ),
            history: HistoryRoutes(inbox: inbox, logger: logger),
            race: RaceRoutes(
                inbox: inbox,
                clock: clock,
                wearables: config.wearables.map(\.name),
                relay: relay,
                logger: logger
            ),
            raceHistory: RaceHistoryRoutes(inbox: inbox, runner: relay?.user ?? "me"),
            courses: CourseRoutes(
                inbox: inbox,
                clock: clock,
                wearables: Set(config.wearables.map(\.name)),
                logger: logger
            ),
            pairing: pairing,
            tls: settings.tls,
            maxStreams: settings.maxStreams,
            streams: streams,
            closing: closing,
            logger: logger
        )
        let router = Router(context: DashboardContext.self)
        router.add(middleware: AccessMiddleware(policy: policy, pairing: pairing, logger: logger))
        routes.add(to: router)
        let server: HTTPServerBuilder
        do {
            server = settings.tls ? try .tls(.http1(), tlsConfiguration: try tlsConfiguration()) : .http1()
        } catch {
            logger.error("the dashboard cannot use the phone's identity for TLS", metadata: ["error": "\(error)"])
            try await gracefulShutdown()
            return
        }
        let logger = self.logger
        let settings = self.settings
        let app = Application(
            router: router,
            server: server,
            configuration: .init(
                address: .hostname(settings.listenAddress, port: settings.port),
                serverName: nil
            ),
            onServerRunning: { channel in
                logger.info(
                    "dashboard listening",
                    metadata: [
                        "address": "\(channel.localAddress?.description ?? "?")",
                        "tls": "\(settings.tls)", "loopback_only": "\(policy.loopbackOnly)",
                    ]
                )
            },
            logger: logger
        )
        let inbox = self.inbox
        let clock = self.clock
        await withDiscardingTaskGroup { group in
            group.addTask {
                do {
                    try await withGracefulShutdownHandler {
                        try await app.run()
                    } onGracefulShutdown: {
                        closing.set()
                        inbox.changes.changed()
                    }
                } catch {
                    // The link is the phone's job; the dashboard failing must not end it.
                    logger.error("the dashboard stopped", metadata: ["error": "\(error)"])
                }
            }
            group.addTask {
                await cancelWhenGracefulShutdown {
                    await LiveFollower(inbox: inbox, clock: clock, streams: streams, logger: logger).run()
                }
            }
        }
    }

    private func tlsConfiguration() throws -> TLSConfiguration {
        let certificates = try NIOSSLCertificate.fromPEMFile(identity.certificatePath)
        let key = try NIOSSLPrivateKey(file: identity.keyPath, format: .pem)
        return TLSConfiguration.makeServerConfiguration(
            certificateChain: certificates.map { .certificate($0) },
            privateKey: .privateKey(key)
        )
    }
}
