import Crypto
import DashboardCore
import Foundation

/// The dashboard's pairing secrets: `wearbridge-phone dashboard pair` makes one and prints it once;
/// only its SHA-256 is kept (`dashboard-pairing`, mode 0600, one hex digest a line), so a copy of the
/// phone's storage does not let anyone in.
public struct PairingFile: Sendable {
    public static let fileName = "dashboard-pairing"
    public let path: String

    public init(directory: String) {
        path = (directory as NSString).appendingPathComponent(Self.fileName)
    }

    /// A new secret (32 random bytes, hex), its digest appended to the file.
    public func make() throws -> String {
        var generator = SystemRandomNumberGenerator()
        let secret = (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }
            .joined()
        let line = Self.digest(secret) + "\n"
        let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw PairingError("cannot write \(path): \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        let written = line.utf8CString.withUnsafeBufferPointer { write(descriptor, $0.baseAddress, line.utf8.count) }
        guard written == line.utf8.count, fsync(descriptor) == 0 else {
            throw PairingError("cannot write \(path): \(String(cString: strerror(errno)))")
        }
        return secret
    }

    /// The digests kept; empty when there is no file yet.
    public func digests() throws -> [String] {
        guard FileManager.default.fileExists(atPath: path) else { return [] }
        let text = try String(contentsOfFile: path, encoding: .utf8)
        return text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { $0.count == 64 }
    }

    /// True when `secret` is one of `digests`.
    public static func matches(_ secret: String, digests: [String]) -> Bool {
        let presented = Array(digest(secret).utf8)
        var found = false
        for kept in digests where SecretComparison.equal(Array(kept.utf8), presented) { found = true }
        return found
    }

    static func digest(_ secret: String) -> String {
        SHA256.hash(data: Data(secret.utf8)).map { String(format: "%02x", $0) }.joined()
    }
}

public struct PairingError: Error, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}
