import ATT

/// Where a strap's Heart Rate (and Battery) attributes live on this connection.
///
/// Handles are per device and may change with its firmware, so they are discovered on every
/// connection rather than remembered.
public struct HeartRateProfile: Sendable, Equatable {
    public var measurementHandle: UInt16
    public var measurementCCCD: UInt16
    public var bodySensorLocationHandle: UInt16?
    public var batteryLevelHandle: UInt16?
    /// The ATT MTU both sides agreed on (23 when the strap refused the exchange).
    public var mtu: UInt16

    public init(
        measurementHandle: UInt16,
        measurementCCCD: UInt16,
        bodySensorLocationHandle: UInt16? = nil,
        batteryLevelHandle: UInt16? = nil,
        mtu: UInt16 = 23
    ) {
        self.measurementHandle = measurementHandle
        self.measurementCCCD = measurementCCCD
        self.bodySensorLocationHandle = bodySensorLocationHandle
        self.batteryLevelHandle = batteryLevelHandle
        self.mtu = mtu
    }

    public static let heartRateService = BluetoothUUID.short(0x180D)
    public static let batteryService = BluetoothUUID.short(0x180F)
    public static let heartRateMeasurement = BluetoothUUID.short(0x2A37)
    public static let bodySensorLocation = BluetoothUUID.short(0x2A38)
    public static let batteryLevel = BluetoothUUID.short(0x2A19)
}
