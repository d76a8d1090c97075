import ArgumentParser
import DashboardServer
import Foundation

/// `wearbridge-phone dashboard pair`: a new pairing secret for the dashboard beyond loopback,
/// printed once (only its digest is kept), with the address to open it at.
struct PhoneDashboardCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dashboard",
        abstract: "The field dashboard (served by `run`, [dashboard] in the config).",
        subcommands: [Pair.self]
    )

    struct Pair: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Make a pairing secret for browsers on other hosts; it is printed once, keep it.",
            discussion: """
                Needed when [dashboard] listen is beyond loopback (with tls = true). Open the printed \
                address once in the browser: the page keeps the secret in a cookie. Every secret made \
                stays valid until `dashboard-pairing` in the storage directory is edited or removed.
                """
        )

        @OptionGroup var options: PhoneConfigOptions

        func run() throws {
            let config = try options.load()
            do {
                try FileManager.default.createDirectory(
                    atPath: config.storageDirectory,
                    withIntermediateDirectories: true
                )
                let secret = try PairingFile(directory: config.storageDirectory).make()
                let scheme = config.dashboard.tls ? "https" : "http"
                Output.line("secret \(secret)")
                Output.line(
                    "open \(scheme)://\(config.dashboard.listenAddress):\(config.dashboard.port)/pair#\(secret)"
                )
            } catch {
                Output.error("wearbridge-phone: \(error)")
                throw ExitCode(73)
            }
        }
    }
}
