import ATT
import CBlueZ

/// A Device1 object as bluetoothd shows it: what it advertised or resolved, and its state.
public struct BlueZDevice: Sendable, Equatable {
    public var path: String
    public var address: BluetoothAddress?
    public var name: String?
    /// Present only while bluetoothd hears it in a discovery.
    public var rssi: Int?
    public var appearance: UInt16?
    public var uuids: [BluetoothUUID]
    public var connected: Bool
    public var paired: Bool
    public var trusted: Bool
    public var servicesResolved: Bool

    init(_ raw: wb_bluez_device) {
        path = cString(raw.path)
        let text = cString(raw.address)
        let kind: BluetoothAddress.Kind = cString(raw.address_type) == "random" ? .random : .public
        address = BluetoothAddress(text, kind: kind)
        let spelled = cString(raw.name)
        name = spelled.isEmpty ? nil : spelled
        rssi = raw.has_rssi != 0 ? Int(raw.rssi) : nil
        appearance = raw.has_appearance != 0 ? raw.appearance : nil
        uuids = cString(raw.uuids).split(separator: " ").compactMap { BluetoothUUID(text: String($0)) }
        connected = raw.connected != 0
        paired = raw.paired != 0
        trusted = raw.trusted != 0
        servicesResolved = raw.services_resolved != 0
    }

    /// The device as a scan reports it.
    public var report: AdvertisingReport? {
        address.map { address in
            AdvertisingReport(
                address: address,
                rssi: rssi,
                name: name,
                serviceUUIDs: uuids.compactMap { if case .short(let value) = $0 { value } else { nil } },
                appearance: appearance
            )
        }
    }

    /// bluetoothd's object path for a device: ADAPTER/dev_AA_BB_CC_DD_EE_FF.
    public static func path(adapter: String, address: BluetoothAddress) -> String {
        "\(adapter)/dev_" + String(address.text.map { $0 == ":" ? "_" : $0 })
    }
}

/// A GattCharacteristic1 object of a connected device.
public struct BlueZCharacteristic: Sendable, Equatable {
    public var path: String
    public var uuid: BluetoothUUID?
    public var service: BluetoothUUID?
    public var notifyAcquired: Bool
    public var notifying: Bool
    public var canNotify: Bool
    public var canIndicate: Bool
    public var canRead: Bool

    init(_ raw: wb_bluez_characteristic) {
        path = cString(raw.path)
        uuid = BluetoothUUID(text: cString(raw.uuid))
        service = BluetoothUUID(text: cString(raw.service_uuid))
        notifyAcquired = raw.notify_acquired != 0
        notifying = raw.notifying != 0
        canNotify = raw.can_notify != 0
        canIndicate = raw.can_indicate != 0
        canRead = raw.can_read != 0
    }
}

/// A fixed-size C char array (a tuple in Swift) as a String.
func cString<T>(_ tuple: T) -> String {
    withUnsafeBytes(of: tuple) { bytes in
        String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
    }
}

extension BluetoothUUID {
    /// "0000180d-0000-1000-8000-00805f9b34fb" as D-Bus spells it; the base UUID folds to 16 bits.
    init?(text: String) {
        let hex = text.filter { $0 != "-" }
        guard hex.count == 32 else { return nil }
        var bigEndian: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            guard let byte = UInt8(hex[index..<next], radix: 16) else { return nil }
            bigEndian.append(byte)
            index = next
        }
        self.init(bytes: bigEndian.reversed())
    }
}
