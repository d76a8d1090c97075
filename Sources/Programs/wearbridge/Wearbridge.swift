import ArgumentParser
import CMalloc
import Foundation
import JournalLog
import Logging
import Release

/// The entry: one malloc arena for every thread, set before the first thread starts (glibc binds an
/// arena to each thread at its first allocation, up to eight per core, each holding its own partly
/// used heap; one arena saves about 0.5 MB of the daemon's 2.5 MB heap with link and cues on).
@main
enum Entry {
    static func main() async {
        _ = cmalloc_single_arena()
        await Wearbridge.main()
    }
}

struct Wearbridge: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "wearbridge",
        abstract: "GPS and heart-rate training and field logging for a headless Linux wearable.",
        version: Release.version,
        subcommands: [
            RunCommand.self, GPSCommand.self, ControlCommand.self, SessionsCommand.self, CoursesCommand.self,
            ShowCommand.self,
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
