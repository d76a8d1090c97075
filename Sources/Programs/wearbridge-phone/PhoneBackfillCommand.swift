import ArgumentParser
import Foundation
import PhoneServer
import ProcessClock

/// `wearbridge-phone backfill SESSION`: pull a session's whole record now (ended sessions are
/// pulled by themselves; this also brings an open one up to date).
struct PhoneBackfillCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backfill",
        abstract: "Pull a session's fixes, beats and events from the wearable (resumable)."
    )

    @OptionGroup var options: PhoneConfigOptions
    @Argument(help: "The session id (as the wearable named it).") var session: String
    @Option(help: "The wearable's name (needed when more than one is configured).") var wearable: String?

    func run() async throws {
        let config = try options.load()
        guard let name = wearable ?? (config.wearables.count == 1 ? config.wearables[0].name : nil) else {
            Output.error("wearbridge-phone: name the wearable with --wearable")
            throw ExitCode(64)
        }
        let inbox = try options.inbox(readOnly: false)
        try await inbox.backfill.request(wearable: name, session: session, at: WallClock.system.now())
        Output.line("backfill of \(session) from \(name) requested (see `wearbridge-phone show \(session)`)")
    }
}
