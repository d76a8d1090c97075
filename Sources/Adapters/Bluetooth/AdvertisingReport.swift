import ATT
import GATT

/// One LE advertising report, with what wearbridge reads from its AD structures.
public struct AdvertisingReport: Sendable, Equatable {
    public var address: BluetoothAddress
    public var rssi: Int?
    public var name: String?
    public var serviceUUIDs: [UInt16]
    public var appearance: UInt16?

    public init(
        address: BluetoothAddress,
        rssi: Int?,
        name: String? = nil,
        serviceUUIDs: [UInt16] = [],
        appearance: UInt16? = nil
    ) {
        self.address = address
        self.rssi = rssi
        self.name = name
        self.serviceUUIDs = serviceUUIDs
        self.appearance = appearance
    }

    /// Advertises the Heart Rate service, or calls itself a heart-rate sensor (appearance 0x0340-0x037F).
    public var isHeartRateSensor: Bool {
        serviceUUIDs.contains(0x180D) || appearance.map { $0 >> 6 == 0x0D } ?? false
    }

    /// A footpod (Running Speed and Cadence 0x1814, or a running/walking sensor's appearance
    /// 0x0440-0x047F) or a treadmill (Fitness Machine 0x1826), if it is one.
    public var speedSensorKind: SpeedSensorKind? {
        if let kind = SpeedSensorKind(advertising: serviceUUIDs.map(BluetoothUUID.short)) { return kind }
        return appearance.map { $0 >> 6 == 0x11 } == true ? .footpod : nil
    }

    /// What `wearbridge scan` calls it: heart_rate, footpod, treadmill, or nil for anything else.
    public var sensorType: String? {
        if let kind = speedSensorKind { return kind.rawValue }
        return isHeartRateSensor ? "heart_rate" : nil
    }

    /// Folds a scan response or a later report of the same device into this one.
    /// (Scanners keep what they heard with `[AdvertisingReport].hear`.)
    public mutating func merge(_ other: AdvertisingReport) {
        rssi = other.rssi ?? rssi
        name = other.name ?? name
        for uuid in other.serviceUUIDs where !serviceUUIDs.contains(uuid) { serviceUUIDs.append(uuid) }
        appearance = other.appearance ?? appearance
    }

    /// Reads the AD structures (length, type, data); a structure running past the end stops the reading.
    public mutating func read(advertisingData data: ArraySlice<UInt8>) {
        var index = data.startIndex
        while index < data.endIndex {
            let length = Int(data[index])
            guard length > 0, index + 1 + length <= data.endIndex else { return }
            let type = data[index + 1]
            let value = Array(data[(index + 2)..<(index + 1 + length)])
            switch type {
            case 0x02, 0x03:
                for at in stride(from: 0, to: value.count - 1, by: 2) {
                    let uuid = UInt16(value[at]) | UInt16(value[at + 1]) << 8
                    if !serviceUUIDs.contains(uuid) { serviceUUIDs.append(uuid) }
                }
            case 0x08 where name == nil, 0x09:
                name = String(decoding: value, as: UTF8.self)
            case 0x19 where value.count == 2:
                appearance = UInt16(value[0]) | UInt16(value[1]) << 8
            default:
                break
            }
            index += 1 + length
        }
    }

    /// The reports in an HCI LE Advertising Report event's parameters (after the subevent code).
    public static func parse(
        leAdvertisingReport parameters: [UInt8]
    ) throws(AdvertisingReportError) -> [AdvertisingReport] {
        guard let count = parameters.first else { throw .init(reason: "empty advertising report event") }
        var reports: [AdvertisingReport] = []
        var at = 1
        for number in 0..<Int(count) {
            // event type (1), address type (1), address (6), data length (1), data, RSSI (1)
            guard at + 9 <= parameters.count else {
                throw .init(reason: "report \(number + 1) of \(count) cut short at byte \(at)")
            }
            let kind: BluetoothAddress.Kind = parameters[at + 1] & 0x01 == 0 ? .public : .random
            let address = BluetoothAddress(littleEndian: parameters[(at + 2)..<(at + 8)], kind: kind)
            let length = Int(parameters[at + 8])
            guard at + 9 + length + 1 <= parameters.count else {
                throw .init(reason: "report \(number + 1): \(length) data bytes run past the event")
            }
            let raw = Int8(bitPattern: parameters[at + 9 + length])
            var report = AdvertisingReport(address: address, rssi: raw == 127 ? nil : Int(raw))
            report.read(advertisingData: parameters[(at + 9)..<(at + 9 + length)])
            reports.append(report)
            at += 10 + length
        }
        return reports
    }
}

public struct AdvertisingReportError: Error, Sendable, Equatable, CustomStringConvertible {
    public var reason: String
    public var description: String { reason }
}

extension AdvertisingReport {
    /// The reports in an HCI LE Extended Advertising Report event (subevent 0x0D): controllers
    /// send these when the host scans with the extended commands, and some (Bumble's) always do.
    public static func parse(
        leExtendedAdvertisingReport parameters: [UInt8]
    ) throws(AdvertisingReportError) -> [AdvertisingReport] {
        guard let count = parameters.first else { throw .init(reason: "empty extended advertising report event") }
        var reports: [AdvertisingReport] = []
        var at = 1
        for number in 0..<Int(count) {
            // event type (2), address type (1), address (6), PHYs (2), SID (1), TX power (1), RSSI (1),
            // periodic interval (2), direct address type (1) and address (6), data length (1), data
            guard at + 24 <= parameters.count else {
                throw .init(reason: "report \(number + 1) of \(count) cut short at byte \(at)")
            }
            let kind: BluetoothAddress.Kind = parameters[at + 2] & 0x01 == 0 ? .public : .random
            let address = BluetoothAddress(littleEndian: parameters[(at + 3)..<(at + 9)], kind: kind)
            let raw = Int8(bitPattern: parameters[at + 13])
            let length = Int(parameters[at + 23])
            guard at + 24 + length <= parameters.count else {
                throw .init(reason: "report \(number + 1): \(length) data bytes run past the event")
            }
            var report = AdvertisingReport(address: address, rssi: raw == 127 ? nil : Int(raw))
            report.read(advertisingData: parameters[(at + 24)..<(at + 24 + length)])
            reports.append(report)
            at += 24 + length
        }
        return reports
    }
}

extension [AdvertisingReport] {
    /// Merges `report` into the device already heard at its address, or appends it: the device as
    /// now known, and whether it is new.
    mutating func hear(_ report: AdvertisingReport) -> (device: AdvertisingReport, isNew: Bool) {
        if let index = firstIndex(where: { $0.address == report.address }) {
            self[index].merge(report)
            return (self[index], false)
        }
        append(report)
        return (report, true)
    }
}
