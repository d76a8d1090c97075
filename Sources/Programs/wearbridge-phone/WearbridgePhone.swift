import ArgumentParser
import Foundation
import JournalLog
import Logging
import RelayContract
import Release

/// `wearbridge-phone`: the phone-role peer of the wearbridge link.
@main
struct WearbridgePhone: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "wearbridge-phone",
        abstract: "The phone-role peer: receives wearables' live state and sessions, sends them commands.",
        version: Release.version,
        subcommands: [
            PhoneRunCommand.self, PhoneIdentityCommand.self, PhoneStatusCommand.self, PhoneInboxCommand.self,
            PhoneSessionsCommand.self, PhoneShowCommand.self, PhoneSessionCommand.Start.self,
            PhoneSessionCommand.Pause.self, PhoneSessionCommand.Resume.self, PhoneSessionCommand.End.self,
            PhoneBackfillCommand.self, PhoneExportCommand.self, PhoneRelayCommand.self, PhoneRaceCommand.self,
            PhoneDashboardCommand.self, PhoneCourseCommand.self,
        ]
    )
}

/// `--config` for every subcommand: the server's TOML.
struct PhoneConfigOptions: ParsableArguments {
    static let defaultPath = "/etc/wearbridge/wearbridge-phone.toml"

    @Option(help: "The configuration file (default \(PhoneConfigOptions.defaultPath) if it exists).")
    var config: String?

    @Option(name: .customLong("log-level"), help: "trace, debug, info, notice, warning, error or critical.")
    var level: String?

    func bootstrap() -> Logger {
        let level = Logger.Level(rawValue: self.level ?? "info") ?? .info
        let environment = ProcessInfo.processInfo.environment
        LoggingSystem.bootstrap { JournalLogHandler(label: $0, level: level, environment: environment) }
        return Logger(label: "wearbridge-phone")
    }
}

/// Output on stdout; errors on stderr. Much of what is printed came from others (a partner's cancel
/// reason, the relay's words): no control character reaches the terminal raw.
enum Output {
    static func line(_ text: String) {
        FileHandle.standardOutput.write(Data((TerminalText.escaped(text, keepingLines: true) + "\n").utf8))
    }

    static func error(_ text: String) {
        FileHandle.standardError.write(Data((TerminalText.escaped(text, keepingLines: true) + "\n").utf8))
    }

    static func json(_ object: Any) -> String {
        guard
            let data = try? JSONSerialization.data(
                withJSONObject: object,
                options: [.sortedKeys, .withoutEscapingSlashes]
            )
        else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }
}
