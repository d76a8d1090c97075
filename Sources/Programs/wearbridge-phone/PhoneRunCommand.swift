import ArgumentParser
import DashboardServer
import Foundation
import Identity
import Logging
import PhoneServer
import ProcessClock
import RaceStore
import RelayPump
import ServiceLifecycle

/// `wearbridge-phone run`: the server, as systemd starts it.
struct PhoneRunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run the phone-role server: wearables dial in over mutual TLS."
    )

    @OptionGroup var options: PhoneConfigOptions

    func run() async throws {
        let config = try options.load()
        let logger = options.bootstrap()
        let identity: NodeIdentity
        let inbox: Inbox
        do {
            try FileManager.default.createDirectory(atPath: config.storageDirectory, withIntermediateDirectories: true)
            let (loaded, created) = try NodeIdentity.loadOrCreate(
                directory: config.storageDirectory,
                commonName: "wearbridge-phone"
            )
            if created {
                logger.notice("created this phone's TLS identity", metadata: ["fingerprint": "\(loaded.fingerprint)"])
            }
            identity = loaded
            inbox = try PhoneDatabase.open(directory: config.storageDirectory)
        } catch {
            logger.critical("cannot start", metadata: ["error": "\(error)"])
            throw ExitCode(73)
        }
        if config.wearables.isEmpty {
            logger.warning("no [[wearable]] is configured: every wearable will be refused")
        }
        // The one wall clock of the phone's server: every shell below stamps its instants with it.
        let clock = WallClock.system
        let server = PhoneServer(
            config: config,
            identity: identity,
            inbox: inbox,
            races: RaceStore(inbox),
            logger: logger,
            clock: clock
        )
        var services: [any Service] = [server]
        if config.dashboard.enabled {
            do {
                services.append(
                    try DashboardService(
                        config: config,
                        identity: identity,
                        inbox: inbox,
                        relay: config.relay.map { .runner($0) },
                        logger: logger,
                        clock: clock
                    )
                )
            } catch {
                logger.critical("cannot start the dashboard", metadata: ["error": "\(error)"])
                throw ExitCode(78)
            }
        }
        if let relay = config.relay {
            guard let wearable = relay.wearable ?? (config.wearables.count == 1 ? config.wearables[0].name : nil) else {
                logger.critical(
                    "[relay] needs `wearable = NAME` when more or fewer than one [[wearable]] is configured"
                )
                throw ExitCode(78)
            }
            services.append(
                RelayPump(
                    endpoint: .runner(relay),
                    wearable: wearable,
                    inbox: inbox,
                    counters: RelayCounters(),
                    logger: logger,
                    clock: clock
                )
            )
        }
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: services,
                gracefulShutdownSignals: [.sigterm, .sigint],
                logger: logger
            )
        )
        try await group.run()
    }
}

/// `wearbridge-phone identity`: this phone's certificate fingerprint (made on first use).
struct PhoneIdentityCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "identity",
        abstract: "Print this phone's certificate fingerprint (creating its key on first use), to pin on wearables."
    )

    @OptionGroup var options: PhoneConfigOptions

    func run() throws {
        let config = try options.load()
        do {
            try FileManager.default.createDirectory(atPath: config.storageDirectory, withIntermediateDirectories: true)
            let (identity, created) = try NodeIdentity.loadOrCreate(
                directory: config.storageDirectory,
                commonName: "wearbridge-phone"
            )
            Output.line("fingerprint \(identity.fingerprint)")
            Output.line("certificate \(identity.certificatePath)\(created ? " (created)" : "")")
        } catch {
            Output.error("wearbridge-phone: \(error)")
            throw ExitCode(73)
        }
    }
}
