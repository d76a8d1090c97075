import ATT

/// A characteristic declaration (0x2803) as discovered: properties, value handle and type.
public struct GATTCharacteristic: Sendable, Equatable {
    public var declaration: UInt16
    public var properties: UInt8
    public var valueHandle: UInt16
    public var uuid: BluetoothUUID

    public init(declaration: UInt16, properties: UInt8, valueHandle: UInt16, uuid: BluetoothUUID) {
        self.declaration = declaration
        self.properties = properties
        self.valueHandle = valueHandle
        self.uuid = uuid
    }

    /// Reads a Read By Type record for 0x2803: properties (1), value handle (2), UUID (2 or 16).
    init?(declaration: UInt16, value: [UInt8]) {
        guard value.count == 5 || value.count == 19, let uuid = BluetoothUUID(bytes: value[3...]) else { return nil }
        self.init(
            declaration: declaration,
            properties: value[0],
            valueHandle: UInt16(value[1]) | UInt16(value[2]) << 8,
            uuid: uuid
        )
    }

    public var canNotify: Bool { properties & 0x10 != 0 }
    public var canIndicate: Bool { properties & 0x20 != 0 }
    public var canRead: Bool { properties & 0x02 != 0 }
}
