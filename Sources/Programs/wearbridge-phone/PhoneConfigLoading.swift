import ArgumentParser
import Foundation
import PhoneServer

extension PhoneConfigOptions {
    /// The configuration, or the defaults when no file is given or installed; exit 78 on a bad one.
    func load() throws -> PhoneConfig {
        let path = config ?? PhoneConfigOptions.defaultPath
        if config == nil, !FileManager.default.fileExists(atPath: path) { return PhoneConfig() }
        do {
            return try PhoneConfig.load(path: path)
        } catch {
            Output.error("wearbridge-phone: \(error)")
            throw ExitCode(78)
        }
    }

    /// The inbox, read-only, for the CLI's queries.
    func inbox(readOnly: Bool = true) throws -> Inbox {
        let config = try load()
        do {
            return try PhoneDatabase.open(directory: config.storageDirectory, readOnly: readOnly)
        } catch {
            Output.error("wearbridge-phone: \(error)")
            throw ExitCode(66)
        }
    }
}
