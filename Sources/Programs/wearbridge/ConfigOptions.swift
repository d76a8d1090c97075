import ArgumentParser
import Config
import Foundation

/// `--config PATH`, shared by every command that reads wearbridge.toml.
struct ConfigOptions: ParsableArguments {
    @Option(help: "Configuration file (default \(WearbridgeConfig.defaultPath); built-in defaults if that is absent).")
    var config: String?

    /// The configuration, or a message naming the key, the value and what is allowed.
    func load() throws -> WearbridgeConfig {
        guard let config else {
            guard FileManager.default.fileExists(atPath: WearbridgeConfig.defaultPath) else {
                return WearbridgeConfig()
            }
            return try ConfigParser(path: WearbridgeConfig.defaultPath).load()
        }
        return try ConfigParser(path: config).load()
    }

    /// Loads or exits with EX_CONFIG after saying why on stderr.
    func loadOrExit() throws -> WearbridgeConfig {
        do {
            return try load()
        } catch {
            StandardError.line("wearbridge: \(error)")
            throw ExitCode(78)
        }
    }
}
