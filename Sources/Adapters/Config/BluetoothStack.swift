/// `[bluetooth] stack`: how straps, footpods and treadmills are reached.
public enum BluetoothStack: String, Sendable, Equatable, CaseIterable {
    /// bluetoothd's D-Bus API when bluetoothd runs (as on every Raspberry Pi OS), the kernel's
    /// sockets when it does not; decided at every connection attempt.
    case auto
    /// bluetoothd's D-Bus API only.
    case bluez
    /// The kernel's sockets only (a raw HCI scan, an L2CAP ATT socket): for a system where nothing
    /// else uses Bluetooth.
    case kernel
}
