import Foundation

/// A fresh directory under /tmp for a test (Unix socket paths must stay short).
public func temporaryDirectory(_ name: String) throws -> String {
    let path = "/tmp/wbt-\(name)-\(UUID().uuidString.prefix(8))"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}
