import ArgumentParser
import Config
import Daemon
import Foundation
import Logging
import Release
import ServiceLifecycle

/// `wearbridge run`: the daemon, as systemd starts it.
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run the logging daemon: gpsd in, sessions to the data log, control on a Unix socket.",
        discussion: """
            Storage and the control socket come up first, then READY=1 goes to systemd; gpsd may \
            come later and is reconnected forever. SIGTERM or SIGINT stop gracefully and leave an \
            active session to be resumed by the next start. Exit status 78 means a configuration \
            error, 65 a database that is not wearbridge's, 73 storage or socket that cannot be created.
            """
    )

    @OptionGroup var configOptions: ConfigOptions
    @OptionGroup var logging: LoggingOptions

    func run() async throws {
        let config = try configOptions.loadOrExit()
        let logger = logging.bootstrap(label: "wearbridge", default: Logger.Level(rawValue: config.logLevel) ?? .info)
        logger.info("starting", metadata: ["version": "\(Release.version)"])
        let daemon: Daemon
        do {
            daemon = try await Daemon.prepare(
                config: config,
                environment: ProcessInfo.processInfo.environment,
                logger: logger
            )
        } catch {
            logger.critical("cannot start", metadata: ["error": "\(error.description)"])
            throw ExitCode(error.exitCode)
        }
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: [daemon],
                gracefulShutdownSignals: [.sigterm, .sigint],
                logger: logger
            )
        )
        try await group.run()
    }
}
