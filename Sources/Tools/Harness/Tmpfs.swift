import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A small real filesystem (tmpfs) mounted over `path` for the length of `body`, and unmounted
/// after it whatever happened: a disk that really fills up. Needs root (CI runs as root).
public func withTmpfs<T>(at path: String, size: String, _ body: () async throws -> T) async throws -> T {
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    let mounted = try runCommand(
        "/usr/bin/mount",
        ["-t", "tmpfs", "-o", "size=\(size),mode=0755", "tmpfs", path]
    )
    guard mounted.status == 0 else {
        throw TmpfsError("cannot mount a \(size) tmpfs at \(path) (the storage-full tests need root): \(mounted.err)")
    }
    defer { _ = try? runCommand("/usr/bin/umount", ["--lazy", path]) }
    return try await body()
}

/// Writes a file until the filesystem holding `path` has no space left; the bytes written.
@discardableResult
public func fillUp(_ path: String) -> Int {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    guard fd >= 0 else { return 0 }
    defer { close(fd) }
    let chunk = [UInt8](repeating: 0x5a, count: 4096)
    var total = 0
    while true {
        let written = chunk.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        guard written > 0 else { break }
        total += written
    }
    fsync(fd)
    return total
}

public struct TmpfsError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
