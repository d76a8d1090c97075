/// What bluetoothd (or the bus on the way to it) answered instead of a result.
public struct BlueZError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The D-Bus error bluetoothd named, typed where wearbridge acts on it.
    public enum Name: Sendable, Equatable {
        /// org.bluez.Error.InProgress: the same request is already under way (a Connect, a Pair).
        case inProgress
        /// org.bluez.Error.NotPermitted: e.g. "Notify acquired", another client holds the notifications.
        case notPermitted
        /// org.bluez.Error.AlreadyExists ("Already Paired"), AlreadyConnected.
        case already
        /// org.bluez.Error.AuthenticationFailed, AuthenticationRejected, ..., or an ATT security error.
        case authentication
        /// org.bluez.Error.NotReady (adapter off), NotAvailable, DoesNotExist, UnknownObject.
        case notThere
        /// org.freedesktop.DBus.Error.NoReply, Timeout: bluetoothd did not answer in time.
        case noReply
        /// org.freedesktop.DBus.Error.AccessDenied: the bus's policy refuses this user.
        case accessDenied
        /// Anything else, e.g. org.bluez.Error.Failed with bluetoothd's reason.
        case other(String)
        /// No D-Bus error: a system call failed on the way.
        case system

        init(dbus name: String, message: String) {
            let last = name.split(separator: ".").last.map(String.init) ?? name
            switch last {
            case "InProgress": self = .inProgress
            case "NotPermitted": self = .notPermitted
            case "AlreadyExists", "AlreadyConnected": self = .already
            case _ where last.hasPrefix("Authentication"): self = .authentication
            case "NotReady", "NotAvailable", "DoesNotExist", "UnknownObject", "UnknownMethod": self = .notThere
            case "NoReply", "Timeout", "TimedOut": self = .noReply
            case "AccessDenied": self = .accessDenied
            default:
                let lowered = message.lowercased()
                self =
                    lowered.contains("authentication") || lowered.contains("encryption")
                    ? .authentication : .other(name)
            }
        }
    }

    public var name: Name
    /// "org.bluez.Error.Failed: le-connection-abort-by-local", or "the system D-Bus: No such file or directory".
    public var text: String

    /// From the C side's "name: message" (a D-Bus error) or "call: strerror" (a system error).
    init(_ text: String) {
        self.text = text
        if text.hasPrefix("org."), let colon = text.firstIndex(of: ":") {
            let message = text[text.index(after: colon)...].trimmingPrefix(" ")
            name = Name(dbus: String(text[..<colon]), message: String(message))
        } else {
            name = .system
        }
    }

    public var description: String { text }
}
