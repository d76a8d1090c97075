import ATT

/// What a client wants of a peer's GATT server: which services, which characteristics to subscribe
/// to and which to read once, and which of them the peer cannot do without.
///
/// One plan per kind of sensor (a strap, a footpod, a treadmill) drives the same `GATTClient`, so
/// discovery, subscription and their failures are written once.
public struct GATTPlan: Sendable, Equatable {
    public struct Wanted: Sendable, Equatable {
        public var uuid: BluetoothUUID
        public var name: String
        /// Without it the peer is of no use: discovery fails (a strap with no 0x2A37).
        public var required: Bool

        public init(_ uuid: BluetoothUUID, _ name: String, required: Bool = false) {
            self.uuid = uuid
            self.name = name
            self.required = required
        }
    }

    public struct Service: Sendable, Equatable {
        public var uuid: BluetoothUUID
        public var name: String
        public var required: Bool
        /// Notified (or indicated) characteristics, subscribed in this order.
        public var subscribe: [Wanted]
        /// Characteristics read once after the subscriptions (and again on request), when readable.
        public var read: [BluetoothUUID]

        public init(
            _ uuid: BluetoothUUID,
            _ name: String,
            required: Bool = false,
            subscribe: [Wanted] = [],
            read: [BluetoothUUID] = []
        ) {
            self.uuid = uuid
            self.name = name
            self.required = required
            self.subscribe = subscribe
            self.read = read
        }
    }

    /// What the peer is called in failures ("strap refused ...").
    public var peer: String
    public var services: [Service]

    public init(peer: String, services: [Service]) {
        self.peer = peer
        self.services = services
    }
}

/// Where the planned attributes live on this connection. Handles are per device and may change
/// with its firmware, so they are discovered on every connection rather than remembered.
public struct GATTLayout: Sendable, Equatable {
    /// The ATT MTU both sides agreed on (23 when the peer refused the exchange).
    public var mtu: UInt16
    /// Every characteristic found in the planned services.
    public var characteristics: [GATTCharacteristic]
    /// Subscribed value handle -> its CCCD.
    public var subscribed: [UInt16: UInt16]

    public init(mtu: UInt16 = 23, characteristics: [GATTCharacteristic] = [], subscribed: [UInt16: UInt16] = [:]) {
        self.mtu = mtu
        self.characteristics = characteristics
        self.subscribed = subscribed
    }

    public func characteristic(_ uuid: BluetoothUUID) -> GATTCharacteristic? {
        characteristics.first { $0.uuid == uuid }
    }

    public func uuid(ofValue handle: UInt16) -> BluetoothUUID? {
        characteristics.first { $0.valueHandle == handle }?.uuid
    }
}

extension BluetoothUUID {
    /// "0x2A37", as the specifications write them.
    public var spelled: String {
        guard case .short(let value) = self else { return description }
        return "0x" + hex16(value).uppercased()
    }
}
