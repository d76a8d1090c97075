import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A cue's WAV file while its player reads it: written with plain POSIX calls (not FileManager and
/// Data, whose code stayed resident for the daemon's life after the first cue), readable by us alone.
struct ScratchFile: ~Copyable {
    let path: String

    /// Writes `bytes` to a new file in `directory`; nil when it cannot (a full or missing /tmp).
    init?(_ bytes: [UInt8], in directory: String) {
        let path =
            "\(directory.hasSuffix("/") ? String(directory.dropLast()) : directory)/wearbridge-cue-\(UUID().uuidString).wav"
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return nil }
        var written = 0
        let complete = bytes.withUnsafeBytes { buffer -> Bool in
            while written < buffer.count {
                let count = write(fd, buffer.baseAddress! + written, buffer.count - written)
                if count > 0 {
                    written += count
                } else if count < 0, errno == EINTR {
                    continue
                } else {
                    return false
                }
            }
            return true
        }
        guard close(fd) == 0, complete else {
            unlink(path)
            return nil
        }
        self.path = path
    }

    deinit { unlink(path) }
}
