import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// An export being written: a temporary file beside the target, buffered, renamed into place only
/// when complete (or copied to stdout), so nothing half-written is ever left behind.
public final class OutputFile {
    public let target: String?
    let temporary: String
    private let descriptor: Int32
    private var buffer: [UInt8] = []
    private let capacity = 1 << 16
    public private(set) var written = 0

    /// `target` nil: standard output (written at `commit`).
    public init(target: String?) throws(ExportError) {
        self.target = target
        let directory = target.map { ($0 as NSString).deletingLastPathComponent } ?? NSTemporaryDirectory()
        let base = target.map { ($0 as NSString).lastPathComponent } ?? "stdout"
        temporary = ((directory.isEmpty ? "." : directory) as NSString)
            .appendingPathComponent(".\(base).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).partial")
        descriptor = open(temporary, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw .unwritable(target ?? temporary, String(cString: strerror(errno))) }
        buffer.reserveCapacity(capacity)
    }

    deinit {
        close(descriptor)
        unlink(temporary)
    }

    public func write(_ bytes: some Sequence<UInt8>) throws(ExportError) {
        buffer.append(contentsOf: bytes)
        if buffer.count >= capacity { try flush() }
    }

    public func write(_ text: String) throws(ExportError) {
        try write(text.utf8)
    }

    func flush() throws(ExportError) {
        var offset = 0
        while offset < buffer.count {
            let count = buffer[offset...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else {
                throw .unwritable(target ?? "stdout", String(cString: strerror(count < 0 ? errno : ENOSPC)))
            }
            offset += count
        }
        written += buffer.count
        buffer.removeAll(keepingCapacity: true)
    }

    /// Overwrites `bytes` at `offset` of what is written (a FIT header's size, once known).
    func patch(_ bytes: [UInt8], at offset: Int) throws(ExportError) {
        try flush()
        let count = bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, off_t(offset)) }
        guard count == bytes.count else { throw .unwritable(target ?? "stdout", String(cString: strerror(errno))) }
    }

    /// Reads back everything written, in chunks (a FIT file's CRC covers its header, patched last).
    func readBack(_ body: (UnsafeRawBufferPointer) -> Void) throws(ExportError) {
        try flush()
        var chunk = [UInt8](repeating: 0, count: capacity)
        var offset = 0
        while offset < written {
            let count = chunk.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, off_t(offset)) }
            guard count > 0 else { throw .unwritable(temporary, String(cString: strerror(errno))) }
            chunk.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
            offset += count
        }
    }

    /// Makes it durable and puts it in place; for stdout, copies it there.
    public func commit(overwrite: Bool) throws(ExportError) {
        try flush()
        guard fsync(descriptor) == 0 else { throw .unwritable(target ?? temporary, String(cString: strerror(errno))) }
        guard let target else {
            // Straight to file descriptor 1: the export is the command's whole output.
            var failed = false
            try readBack { bytes in
                var offset = 0
                while offset < bytes.count, !failed {
                    let count = Glibc.write(1, bytes.baseAddress! + offset, bytes.count - offset)
                    if count <= 0 { failed = true } else { offset += count }
                }
            }
            if failed { throw .unwritable("stdout", String(cString: strerror(errno))) }
            return
        }
        if !overwrite, FileManager.default.fileExists(atPath: target) { throw .exists(target) }
        guard rename(temporary, target) == 0 else { throw .unwritable(target, String(cString: strerror(errno))) }
    }
}

/// Why an export was not written.
public enum ExportError: Error, CustomStringConvertible, Equatable {
    case unwritable(String, String)
    case exists(String)
    case noPoints(String)

    public var description: String {
        switch self {
        case .unwritable(let path, let reason): "cannot write \(path): \(reason)"
        case .exists(let path): "\(path) exists (use --force to replace it)"
        case .noPoints(let session): "session \(session) has no accepted fix: there is no track to export"
        }
    }
}
