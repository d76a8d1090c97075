import ArgumentParser
import Foundation
import Logging
import RelayClient
import RelayContract

/// `wearbridge-phone relay migrate|enrol`: the relay owner's commands, over the owner's URL.
struct PhoneRelayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "relay",
        abstract: "Set up the PostgreSQL relay for virtual runs (its owner's commands).",
        subcommands: [Migrate.self, Enrol.self]
    )

    struct Owner: ParsableArguments {
        @Option(
            name: .customLong("admin-url"),
            help: "The owner's libpq URL, e.g. postgresql://relay_admin@/postgres?host=/run/relay&port=5432."
        )
        var adminURL: String

        func endpoint() throws -> RelayEndpoint {
            do {
                return try RelayEndpoint.parse(url: adminURL, environment: ProcessInfo.processInfo.environment)
            } catch {
                Output.error("wearbridge-phone: \(error)")
                throw ExitCode(64)
            }
        }
    }

    struct Migrate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "migrate",
            abstract: "Apply the relay's schema migrations the database has not had (each once, in order)."
        )
        @OptionGroup var owner: Owner
        @OptionGroup var options: PhoneConfigOptions
        @Option(help: "Apply migrations up to this version only (an upgrade in steps; the default is all).")
        var through: Int?

        func run() async throws {
            let logger = options.bootstrap()
            let endpoint = try owner.endpoint()
            let known = RelayMigration.all
            if let through, !(1...known.count).contains(through) {
                Output.error("wearbridge-phone: --through \(through): this program knows versions 1 to \(known.count)")
                throw ExitCode(64)
            }
            let migrator = RelayMigrator(migrations: Array(known.prefix(through ?? known.count)))
            let outcome = try await relayCall {
                try await RelayConnection.with(endpoint, logger: logger) { try await migrator.migrate($0) }
            }
            let applied = outcome.applied.map(String.init).joined(separator: ", ")
            Output.line(
                outcome.applied.isEmpty
                    ? "relay schema at version \(outcome.current), nothing to apply"
                    : "relay schema at version \(outcome.current) (applied \(applied))"
            )
        }
    }

    struct Enrol: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "enrol",
            abstract: "Make a runner known to the relay: a login role named as their certificate's CN."
        )
        @OptionGroup var owner: Owner
        @OptionGroup var options: PhoneConfigOptions
        @Argument(help: "The runner's name (their certificate's CN).") var runner: String

        func run() async throws {
            let logger = options.bootstrap()
            guard let name = RunnerName(runner) else {
                Output.error("wearbridge-phone: \(runner) is not a runner's name ([a-z][a-z0-9_]*, at most 63)")
                throw ExitCode(64)
            }
            let endpoint = try owner.endpoint()
            let new = try await relayCall {
                try await RelayConnection.with(endpoint, logger: logger) {
                    try await RelayEnrolment().enrol(name, on: $0)
                }
            }
            Output.line(new ? "enrolled \(name)" : "\(name) was already enrolled")
        }
    }
}

/// Runs a relay call; a relay error is printed and exits 69 (unreachable), 75 (busy: try again) or 65
/// (refused, not found).
func relayCall<Result: Sendable>(_ body: () async throws -> Result) async throws -> Result {
    do {
        return try await body()
    } catch let error as RelayError {
        Output.error("wearbridge-phone: \(error)")
        switch error {
        case .unreachable: throw ExitCode(69)
        case .busy: throw ExitCode(75)
        case .credentials, .badURL: throw ExitCode(78)
        default: throw ExitCode(65)
        }
    }
}
