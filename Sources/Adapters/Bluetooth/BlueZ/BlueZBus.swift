import CBlueZ

#if canImport(Glibc)
import Glibc
#endif

/// One connection to the system bus, for talking to bluetoothd (`org.bluez`). A thin shell over
/// sd-bus (CBlueZ); every call waits at most its timeout, answering the pairing agent meanwhile.
///
/// Used from one thread at a time (a link's blocking thread); freed with the object.
public final class BlueZBus: @unchecked Sendable {
    let handle: OpaquePointer

    /// Connects to the system bus (DBUS_SYSTEM_BUS_ADDRESS, or /run/dbus/system_bus_socket).
    public init() throws(BlueZError) {
        var opened: OpaquePointer?
        let result = Self.call { wb_bluez_open(&opened, $0, $1) }
        guard case .success = result, let opened else {
            if case .failure(let error) = result { throw error }
            throw BlueZError("the system D-Bus: no connection")
        }
        handle = opened
    }

    deinit { wb_bluez_free(handle) }

    /// Whether bluetoothd holds its name on the bus.
    public func bluetoothdRunning() throws(BlueZError) -> Bool {
        try Self.call { wb_bluez_running(handle, $0, $1) }.get() == 1
    }

    /// bluetoothd's process id, for the journal.
    public func bluetoothdPID() -> UInt32? {
        var pid: UInt32 = 0
        guard case .success = Self.call({ wb_bluez_owner_pid(handle, &pid, $0, $1) }) else { return nil }
        return pid
    }

    /// Whether bluetoothd has this adapter, and whether it is powered; nil when it has none.
    public func adapterPowered(_ path: String) throws(BlueZError) -> Bool? {
        var powered: Int32 = 0
        return try Self.call { wb_bluez_adapter(handle, path, &powered, $0, $1) }.get() == 1 ? powered != 0 : nil
    }

    public func discovery(_ adapterPath: String, start: Bool) throws(BlueZError) {
        _ = try Self.call { wb_bluez_discovery(handle, adapterPath, start ? 1 : 0, $0, $1) }.get()
    }

    public func devices(_ adapterPath: String) throws(BlueZError) -> [BlueZDevice] {
        var raw = [wb_bluez_device](repeating: wb_bluez_device(), count: 256)
        let count = try Self.call { wb_bluez_devices(handle, adapterPath, &raw, Int32(raw.count), $0, $1) }.get()
        return raw.prefix(Int(count)).map(BlueZDevice.init)
    }

    public func characteristics(_ devicePath: String) throws(BlueZError) -> [BlueZCharacteristic] {
        var raw = [wb_bluez_characteristic](repeating: wb_bluez_characteristic(), count: 64)
        let count = try Self.call {
            wb_bluez_characteristics(handle, devicePath, &raw, Int32(raw.count), $0, $1)
        }.get()
        return raw.prefix(Int(count)).map(BlueZCharacteristic.init)
    }

    /// A method without arguments: Device1.Connect, Disconnect, Pair.
    public func call(_ path: String, _ interface: String, _ method: String, timeout: Double) throws(BlueZError) {
        _ = try Self.call { wb_bluez_call(handle, path, interface, method, Self.microseconds(timeout), $0, $1) }.get()
    }

    public func set(_ path: String, _ interface: String, _ property: String, _ value: Bool) throws(BlueZError) {
        _ = try Self.call { wb_bluez_set_bool(handle, path, interface, property, value ? 1 : 0, $0, $1) }.get()
    }

    /// AcquireNotify: a SOCK_SEQPACKET descriptor (ours to close) yielding one value per read, and the MTU.
    public func acquireNotify(_ path: String) throws(BlueZError) -> (descriptor: Int32, mtu: UInt16) {
        var descriptor: Int32 = -1
        var mtu: UInt16 = 0
        _ = try Self.call { wb_bluez_acquire_notify(handle, path, &descriptor, &mtu, $0, $1) }.get()
        return (descriptor, mtu)
    }

    public func readValue(_ path: String, timeout: Double) throws(BlueZError) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: 512)
        let count = try Self.call {
            wb_bluez_read_value(handle, path, &buffer, buffer.count, Self.microseconds(timeout), $0, $1)
        }.get()
        return Array(buffer.prefix(Int(count)))
    }

    /// Registers the NoInputNoOutput agent this bus answers for, bluetoothd's default while the bus
    /// lives: just-works pairing with `device` only.
    public func registerAgent(for device: String) throws(BlueZError) {
        _ = try Self.call { wb_bluez_register_agent(handle, device, $0, $1) }.get()
    }

    /// Answers what bluetoothd asked meanwhile, waiting at most `timeout`.
    public func process(timeout: Double) {
        _ = wb_bluez_process(handle, Self.microseconds(timeout))
    }

    /// Pairing requests the agent confirmed, and refused (a passkey or PIN it cannot show or type).
    public var agentCounts: (confirmed: Int, refused: Int) {
        var confirmed: UInt32 = 0
        var refused: UInt32 = 0
        wb_bluez_agent_counts(handle, &confirmed, &refused)
        return (Int(confirmed), Int(refused))
    }

    private static func microseconds(_ seconds: Double) -> UInt64 { UInt64(max(0.001, min(seconds, 600)) * 1e6) }

    private static func call(_ body: (UnsafeMutablePointer<CChar>, Int) -> Int32) -> Result<Int32, BlueZError> {
        var text = [CChar](repeating: 0, count: 512)
        let result = text.withUnsafeMutableBufferPointer { body($0.baseAddress!, $0.count) }
        guard result < 0 else { return .success(result) }
        return .failure(
            BlueZError(String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        )
    }
}

extension BlueZBus {
    /// Ends the call under way and every later one (from any thread): for a stop during a Connect.
    public func cancel() { wb_bluez_cancel(handle) }

    /// Ends a device's link, or cancels its making, over a bus of its own (a stop has cancelled the
    /// link's bus); best effort: nothing to end is no error.
    static func disconnect(_ devicePath: String) {
        try? BlueZBus().call(devicePath, "org.bluez.Device1", "Disconnect", timeout: 5)
    }
}
