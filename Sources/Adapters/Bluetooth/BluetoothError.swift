#if canImport(Glibc)
import Glibc
#endif

/// What went wrong talking to the adapter or a sensor, with the call and the system's reason.
public enum BluetoothError: Error, Sendable, Equatable, CustomStringConvertible {
    case noAdapter(String)
    case system(String, errno: Int32)
    case timedOut(String)
    case cancelled
    /// bluetoothd (or the bus) refused a call: which, and its answer.
    case bluez(String, BlueZError)
    /// The sensor is in use by another program on this machine: by whom, as far as the system says.
    case held(String)
    /// The sensor is not what it was taken for (no such service).
    case refused(String)

    public var description: String {
        switch self {
        case .noAdapter(let name): "no Bluetooth adapter \(name) (is the controller up, and Bluetooth in the kernel?)"
        case .system(let call, let code): "\(call): \(String(cString: strerror(code)))"
        case .timedOut(let what): what
        case .cancelled: "cancelled"
        case .bluez(let call, let error): "bluetoothd: \(call): \(error)"
        case .held(let why): "held by another program: \(why)"
        case .refused(let why): why
        }
    }
}
