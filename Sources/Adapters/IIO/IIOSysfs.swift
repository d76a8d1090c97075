import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Writing a sysfs attribute, as `echo VALUE > FILE` does: one write of the whole text, the
/// kernel's refusal (EINVAL, EBUSY, EACCES) its reason.
enum IIOSysfs {
    static func write(_ text: String, to path: String) throws(IIOSetupError) {
        let fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC)
        guard fd >= 0 else { throw .refused(path: path, value: text, reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        guard written == bytes.count else {
            throw .refused(path: path, value: text, reason: String(cString: strerror(errno)))
        }
    }

    static func read(_ path: String) -> String? {
        (try? String(contentsOfFile: path, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }
}

/// Why a buffered IIO device could not be set up; each names the file and what the kernel said.
public enum IIOSetupError: Error, Equatable, CustomStringConvertible {
    /// A sysfs attribute the kernel would not take (its path, the value, why).
    case refused(path: String, value: String, reason: String)
    /// No trigger to drive the buffer: the device has none of its own and no hrtimer trigger could
    /// be made (why).
    case noTrigger(reason: String)
    /// A channel the reading needs is not among the device's scan elements, or its type is unreadable.
    case channel(name: String, reason: String)
    /// The device node would not open.
    case node(path: String, reason: String)

    public var description: String {
        switch self {
        case .refused(let path, let value, let reason): "\(path) refused \"\(value)\": \(reason)"
        case .noTrigger(let reason): "no trigger: \(reason)"
        case .channel(let name, let reason): "channel \(name): \(reason)"
        case .node(let path, let reason): "\(path): \(reason)"
        }
    }
}
