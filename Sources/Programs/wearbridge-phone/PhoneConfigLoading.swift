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
            // A phone's first write (a course added before it ever ran) makes its storage.
            if !readOnly {
                try FileManager.default.createDirectory(
                    atPath: config.storageDirectory,
                    withIntermediateDirectories: true
                )
            }
            return try PhoneDatabase.open(directory: config.storageDirectory, readOnly: readOnly)
        } catch {
            Output.error("wearbridge-phone: \(error)")
            throw ExitCode(66)
        }
    }
}
