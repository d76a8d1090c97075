import ArgumentParser
import Logging

@main
struct Wearbridge: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "wearbridge",
        abstract: "GPS and heart-rate training and field logging for a headless Linux wearable.",
        subcommands: [ReplayCommand.self]
    )
}

/// Logging options shared by every subcommand.
struct LoggingOptions: ParsableArguments {
    @Option(name: .customLong("log-level"), help: "trace, debug, info, notice, warning, error or critical.")
    var level: Logger.Level = .info

    /// Bootstraps swift-log once, to stderr, and returns the command's logger.
    func bootstrap(label: String) -> Logger {
        let level = self.level
        LoggingSystem.bootstrap { name in
            var handler = StreamLogHandler.standardError(label: name)
            handler.logLevel = level
            return handler
        }
        return Logger(label: label)
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}
