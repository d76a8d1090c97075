/// Why the control socket cannot be set up or reached.
public enum ControlSocketError: Error, CustomStringConvertible, Equatable {
    case inUse(path: String)
    case notASocket(path: String)
    case directory(path: String, reason: String)
    case unknownGroup(String)
    case permissions(path: String, reason: String)
    case notRunning(path: String)
    case connection(path: String, reason: String)
    case noReply(path: String)
    case timedOut(path: String, after: Duration)

    public var description: String {
        switch self {
        case .inUse(let path):
            "control socket \(path) is in use: another wearbridge is running"
        case .notASocket(let path):
            "control socket path \(path) exists and is not a socket; remove it or set [control] socket"
        case .directory(let path, let reason):
            "cannot create the control socket's directory \(path): \(reason)"
        case .unknownGroup(let group):
            "[control] group \(group) does not exist on this system"
        case .permissions(let path, let reason):
            "cannot set owner or mode of \(path): \(reason)"
        case .notRunning(let path):
            "wearbridge is not running (no control socket at \(path))"
        case .connection(let path, let reason):
            "cannot talk to wearbridge at \(path): \(reason)"
        case .noReply(let path):
            "wearbridge at \(path) closed the connection without a reply"
        case .timedOut(let path, let after):
            "wearbridge at \(path) did not reply within \(after); it may be stuck (see its log)"
        }
    }
}
