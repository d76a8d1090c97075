import ArgumentParser
import Foundation
import JournalLog
import Logging
import Release

@main
struct Wearbridge: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "wearbridge",
        abstract: "GPS and heart-rate training and field logging for a headless Linux wearable.",
        version: Release.version,
        subcommands: [
            RunCommand.self, GPSCommand.self, ControlCommand.self, SessionsCommand.self, ShowCommand.self,
            ReplayCommand.self, DecodeHRMCommand.self, ScanCommand.self, StrapCommand.self, SensorCommand.self,
            OutboxCommand.self,
            IdentityCommand.self, SayCommand.self, CuesCommand.self, ExportCommand.self, CalibrationCommand.self,
        ]
    )
}

/// Logging options shared by every subcommand.
struct LoggingOptions: ParsableArguments {
    @Option(name: .customLong("log-level"), help: "trace, debug, info, notice, warning, error or critical.")
    var level: Logger.Level?

    /// Bootstraps swift-log once, to stderr, and returns the command's logger.
    func bootstrap(label: String, default fallback: Logger.Level = .info) -> Logger {
        let level = self.level ?? fallback
        let environment = ProcessInfo.processInfo.environment
        LoggingSystem.bootstrap { name in
            JournalLogHandler(label: name, level: level, environment: environment)
        }
        return Logger(label: label)
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}
