import ATT
import CBluetooth

#if canImport(Glibc)
import Glibc
#endif

/// A local controller by name ("hci0"), through libbluetooth.
public struct HCIAdapter: Sendable {
    public var name: String

    public init(name: String) throws(BluetoothError) {
        self.name = name
        guard hci_devid(name) >= 0 else { throw .noAdapter(name) }
    }

    var id: Int32 { hci_devid(name) }

    /// The adapter's public address, which the ATT socket binds to.
    public func address() throws(BluetoothError) -> BluetoothAddress {
        var raw = bdaddr_t()
        guard hci_devba(id, &raw) == 0 else { throw .system("hci_devba(\(name))", errno: errno) }
        return BluetoothAddress(littleEndian: raw.littleEndian, kind: .public)
    }
}
