import ArgumentParser
import Identity

/// `wearbridge identity`: this wearable's certificate fingerprint, to pin on the phone.
struct IdentityCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "identity",
        abstract: "Print this wearable's certificate fingerprint (creating its key on first use), to pin on the phone."
    )

    @Option(help: "Storage directory (default: [storage] directory of the configuration).")
    var storage: String?

    @Option(help: "The name in a new certificate (default: [phone] name, or \"wearable\").")
    var name: String?

    @OptionGroup var configOptions: ConfigOptions

    func run() throws {
        let config = try configOptions.loadOrExit()
        let directory = storage ?? config.storageDirectory
        do {
            let (identity, created) = try NodeIdentity.loadOrCreate(
                directory: directory,
                commonName: name ?? config.phone?.name ?? "wearable"
            )
            StandardOutput.line("fingerprint \(identity.fingerprint)")
            StandardOutput.line("certificate \(identity.certificatePath)\(created ? " (created)" : "")")
        } catch {
            StandardError.line("wearbridge: \(error)")
            throw ExitCode(73)
        }
    }
}
