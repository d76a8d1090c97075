import UnixSockets

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Claims a Unix socket path before binding: a live listener means another daemon, a dead one
/// is a leftover of a crash and is removed, anything else is not ours to delete.
enum UnixSocketPath {
    static func claim(_ path: String) throws {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            try ensureDirectory(of: path)
            return
        }
        guard (info.st_mode & S_IFMT) == S_IFSOCK else { throw ControlSocketError.notASocket(path: path) }
        if isListening(path) { throw ControlSocketError.inUse(path: path) }
        unlink(path)
    }

    /// connect(2) to the path: succeeds only if some process listens there.
    static func isListening(_ path: String) -> Bool {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        guard let address = UnixSocketAddress(path: path) else { return false }
        return address.withSockAddr { connect(fd, $0, $1) } == 0
    }

    private static func ensureDirectory(of path: String) throws {
        let directory = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
        guard !directory.isEmpty else { return }
        var info = stat()
        if stat(directory, &info) == 0 { return }
        if mkdir(directory, 0o755) != 0 && errno != EEXIST {
            throw ControlSocketError.directory(path: directory, reason: String(cString: strerror(errno)))
        }
    }

    /// Mode 0660 and, when configured, the group that may control the daemon.
    static func restrict(_ path: String, group: String?) throws {
        if let group {
            guard let entry = getgrnam(group) else { throw ControlSocketError.unknownGroup(group) }
            if chown(path, uid_t.max, entry.pointee.gr_gid) != 0 {
                throw ControlSocketError.permissions(
                    path: path,
                    reason: "chown to group \(group): \(String(cString: strerror(errno)))"
                )
            }
        }
        if chmod(path, 0o660) != 0 {
            throw ControlSocketError.permissions(path: path, reason: "chmod 0660: \(String(cString: strerror(errno)))")
        }
    }
}
