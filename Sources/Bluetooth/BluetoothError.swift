#if canImport(Glibc)
import Glibc
#endif

/// What went wrong talking to the adapter or a strap, with the call and the system's reason.
public enum BluetoothError: Error, Sendable, Equatable, CustomStringConvertible {
    case noAdapter(String)
    case system(String, errno: Int32)
    case timedOut(String)
    case cancelled

    public var description: String {
        switch self {
        case .noAdapter(let name): "no Bluetooth adapter \(name) (is the controller up, and Bluetooth in the kernel?)"
        case .system(let call, let code): "\(call): \(String(cString: strerror(code)))"
        case .timedOut(let what): what
        case .cancelled: "cancelled"
        }
    }
}
