import ATT
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The strap "first-seen" picked, kept in the storage directory (`strap`: "ADDRESS TYPE") so that
/// the next start connects to the same one instead of whichever strap is nearest.
struct RememberedStrap {
    let path: String

    init(directory: String) {
        path = directory + "/strap"
    }

    /// The remembered strap; nil when none (or the file is not one: a warning says so).
    func load() -> (address: BluetoothAddress?, problem: String?) {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return (nil, nil) }
        let parts = text.split(whereSeparator: \.isWhitespace)
        guard parts.count == 2, let kind = BluetoothAddress.Kind(rawValue: String(parts[1])),
            let address = BluetoothAddress(String(parts[0]), kind: kind)
        else { return (nil, "\(path) is not \"ADDRESS random|public\"; scanning for a strap again") }
        return (address, nil)
    }

    /// Written to a temporary file and renamed: a crash leaves the old file or the new, never half.
    /// Throws when either step fails, naming the file and the system's reason.
    func save(_ address: BluetoothAddress) throws(RememberedStrapError) {
        let temporary = path + ".tmp"
        do {
            try Data("\(address.text) \(address.kind.rawValue)\n".utf8).write(to: URL(fileURLWithPath: temporary))
        } catch {
            throw RememberedStrapError(path: temporary, reason: "\(error)")
        }
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw RememberedStrapError(path: path, reason: "cannot rename \(temporary) to it: \(reason)")
        }
    }
}

/// Why the strap could not be remembered.
struct RememberedStrapError: Error, CustomStringConvertible {
    var path: String
    var reason: String

    var description: String { "\(path): \(reason)" }
}
