import ATT
import GATT
import Glibc
import HeartRate
import Logging
import Testing

@testable import Bluetooth

/// What the path through bluetoothd reads of D-Bus (error names, UUIDs, object paths) and the strap
/// connection over an AcquireNotify socket: a SOCK_SEQPACKET pair, one value per message, as
/// bluetoothd hands it.
@Suite("Through bluetoothd")
struct BlueZPathTests {
    @Test(arguments: [
        ("org.bluez.Error.NotPermitted: Notify acquired", BlueZError.Name.notPermitted),
        ("org.bluez.Error.InProgress: In Progress", .inProgress),
        ("org.bluez.Error.AlreadyConnected: Already Connected", .already),
        ("org.bluez.Error.AuthenticationFailed: Authentication Failed", .authentication),
        ("org.bluez.Error.Failed: Operation failed with ATT error: 0x05 insufficient authentication", .authentication),
        ("org.freedesktop.DBus.Error.NoReply: Method call timed out", .noReply),
        ("org.freedesktop.DBus.Error.AccessDenied: Rejected send message", .accessDenied),
        ("org.freedesktop.DBus.Error.UnknownObject: Method \"Connect\" doesn't exist", .notThere),
        ("org.bluez.Error.Failed: le-connection-abort-by-local", .other("org.bluez.Error.Failed")),
        ("the system D-Bus: No such file or directory", .system),
    ])
    func errorsAreTypedByName(text: String, name: BlueZError.Name) {
        let error = BlueZError(text)
        #expect(error.name == name)
        #expect(error.description == text)
    }

    @Test func uuidsAndPathsAreReadAsBluetoothdWritesThem() throws {
        #expect(BluetoothUUID(text: "0000180d-0000-1000-8000-00805f9b34fb") == .short(0x180D))
        #expect(BluetoothUUID(text: "00002A37-0000-1000-8000-00805F9B34FB") == .short(0x2A37))
        let long = try #require(BluetoothUUID(text: "6e400001-b5a3-f393-e0a9-e50e24dcca9e"))
        #expect(long.description == "6e400001b5a3f393e0a9e50e24dcca9e")
        #expect(BluetoothUUID(text: "180d") == nil)
        #expect(BluetoothUUID(text: "0000180g-0000-1000-8000-00805f9b34fb") == nil)
        let strap = try #require(BluetoothAddress("F1:F1:F1:F1:F1:F1", kind: .random))
        #expect(BlueZDevice.path(adapter: "/org/bluez/hci0", address: strap) == "/org/bluez/hci0/dev_F1_F1_F1_F1_F1_F1")
    }

    /// Beats on the notify socket are beats; the socket closed by bluetoothd (the link gone, another
    /// program's Disconnect) ends the connection at once, not after the silence.
    @Test func theStrapStreamsOverANotifySocketUntilBluetoothdClosesIt() throws {
        var pair: [Int32] = [0, 0]
        #expect(socketpair(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue), 0, &pair) == 0)
        let payloads: [[UInt8]] = [[0x00, 0x48], [0x10, 0x49, 0x00, 0x04], [0x00]]
        for payload in payloads {
            #expect(payload.withUnsafeBytes { send(pair[1], $0.baseAddress, $0.count, 0) } == payload.count)
        }
        close(pair[1])
        var transport = BlueZTransport(
            bus: nil,
            devicePath: "/org/bluez/hci0/dev_F1_F1_F1_F1_F1_F1",
            notifications: [(pair[0], HeartRateProfile.heartRateMeasurement)],
            readable: [:],
            planReads: [],
            mtu: 517,
            requestTimeout: 5,
            connectedHere: false
        )
        var connection = StrapConnection(batteryEvery: 300, clock: { 0 }, logger: Logger(label: "test"))
        var monitor = StrapMonitor(address: "F1:F1:F1:F1:F1:F1", silenceAfter: 5)
        var events: [StrapLinkEvent] = []
        let reason = connection.run(over: &transport, monitor: &monitor, stop: StopFlag()) { events.append($0) }
        transport.close()
        #expect(reason == "link closed by the strap")
        #expect(connection.beats == 2)
        #expect(connection.malformedBeats == 1)
        let bpms = events.compactMap { if case .beat(let m, _, _) = $0 { m.bpm } else { nil } }
        #expect(bpms == [72, 73])
        #expect(events.contains(.subscribed(address: "F1:F1:F1:F1:F1:F1", receivedAt: 0)))
    }
}
