import Engine
import Foundation
import GRPCCore
import GRPCNIOTransportHTTP2
import Identity
import Logging
import PhoneLinkContract
import PhoneLinkDelivery
import PhoneLinkTLS
import PhoneLinkWire
import ProcessClock
import Reconnection
import SessionCore
import Store
import Synchronization

/// The wearable's end of the phone link: dials the phone over mutual TLS, says hello, sends the
/// outbox after the phone's mark (newest snapshot first), marks messages delivered on the phone's
/// acks, and hands the phone's commands to the engine. Reconnects forever; never blocks the engine.
public struct PhoneLinkClient: Sendable {
    public let settings: PhoneLinkSettings
    let store: SessionLog
    let logger: Logger
    let pinning: PeerPinning

    public init(settings: PhoneLinkSettings, store: SessionLog, logger: Logger) {
        self.settings = settings
        self.store = store
        self.logger = logger
        pinning = PeerPinning(trusted: [settings.phoneFingerprint: "phone"], logger: logger)
    }

    /// Runs until cancelled. `outboxGrew` fires after each commit that added outbox rows;
    /// `submit` hands a command to the engine; `report` tells the engine the link's state.
    public func run(
        outboxGrew: AsyncStream<Void>,
        submit: @escaping @Sendable (PhoneCommand) async -> PhoneCommandOutcome,
        report: @escaping @Sendable (PhoneLinkReport) -> Void,
        partner: @escaping @Sendable (PartnerSnapshotReport) -> Void = { _ in }
    ) async {
        let shared = LinkShared(staleAfter: settings.staleAfter)
        let loop = ReconnectLoop(
            messages: ReconnectLoop.Messages(failed: "cannot reach the phone", ended: "phone link ended"),
            peer: ["phone": "\(settings.host):\(settings.port)"],
            backoff: ReconnectBackoff(initial: 0.5, cap: 15),
            logger: logger
        )
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for await _ in outboxGrew { shared.wake() }
            }
            group.addTask {
                // Health and outbox depth for `status`, once a second.
                while !Task.isCancelled {
                    let state = shared.tick(MonotonicClock.now())
                    let depth = try? store.outboxDepth()
                    report(
                        PhoneLinkReport(
                            state: state,
                            outboxDepth: depth?.pending ?? 0,
                            oldestCriticalAt: depth?.oldestCriticalAt
                        )
                    )
                    try? await Task.sleep(for: .seconds(1))
                }
            }
            group.addTask {
                await loop.run {
                    let connection = PhoneConnection(client: self, shared: shared, submit: submit, partner: partner)
                    return await connection.run()
                }
            }
            await group.next()
            group.cancelAll()
        }
    }

    /// The transport: mutual TLS with the phone's certificate pinned, keepalive pings on.
    func transport() throws -> HTTP2ClientTransport.Posix {
        try HTTP2ClientTransport.Posix(
            target: .dns(host: settings.host, port: settings.port),
            transportSecurity: MutualTLS.client(settings.identity, pinning: pinning),
            config: .defaults { config in
                let ping = Duration.milliseconds(Int(settings.keepaliveEvery * 1000))
                config.connection.keepalive = .init(time: ping, timeout: .seconds(5), allowWithoutCalls: true)
                // The phone is pinned by fingerprint, not by name: a fixed SNI name works for IP addresses too.
                config.http2.authority = "wearbridge-phone"
                config.backoff = .init(initial: .milliseconds(500), max: .seconds(15), multiplier: 1.6, jitter: 0.2)
            }
        )
    }
}

/// State the connection's tasks and the health ticker share.
final class LinkShared: Sendable {
    private let health: Mutex<LinkHealth>
    /// The live connection's pump, woken when the outbox grows.
    private let pump = Mutex<AsyncStream<PumpEvent>.Continuation?>(nil)

    init(staleAfter: Double) {
        health = Mutex(LinkHealth(staleAfter: staleAfter))
    }

    func attach(_ continuation: AsyncStream<PumpEvent>.Continuation?) { pump.withLock { $0 = continuation } }
    func wake() { _ = pump.withLock { $0?.yield(.outboxGrew) } }

    func connection(_ open: Bool) { _ = health.withLock { $0.connection(open, at: MonotonicClock.now()) } }
    func traffic() { _ = health.withLock { $0.traffic(at: MonotonicClock.now()) } }
    func tick(_ now: Double) -> PhoneLinkState {
        health.withLock { health in
            _ = health.tick(now)
            return health.state
        }
    }
}
