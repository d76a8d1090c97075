import ATT
import ProcessClock

/// LE discovery through bluetoothd: a discovery session of our own with an LE filter, which
/// bluetoothd merges with any other program's (a settings panel pairing headphones), and the
/// devices it heard read from its objects. No HCI command of ours reaches the controller.
public struct BlueZScanner: Sendable {
    public var adapter: String

    public init(adapter: String = "hci0") {
        self.adapter = adapter
    }

    /// Listens for `seconds` (or until `until` says so); every device heard in that time, merged by
    /// address, in the order first heard.
    public func scan(
        seconds: Double,
        stop: StopFlag = StopFlag(),
        until: (AdvertisingReport) -> Bool = { _ in false }
    ) throws(BluetoothError) -> [AdvertisingReport] {
        let bus = try BlueZConnector(
            adapter: adapter,
            connectTimeout: seconds,
            requestTimeout: 5,
            logger: .init(label: "scan")
        )
        .open(stop: stop)
        return try scan(bus: bus, seconds: seconds, stop: stop, until: until)
    }

    func scan(
        bus: BlueZBus,
        seconds: Double,
        stop: StopFlag,
        until: (AdvertisingReport) -> Bool
    ) throws(BluetoothError) -> [AdvertisingReport] {
        let adapterPath = "/org/bluez/\(adapter)"
        do { try bus.discovery(adapterPath, start: true) } catch {
            if stop.isSet { throw .cancelled }
            throw .bluez("StartDiscovery", error)
        }
        defer { try? bus.discovery(adapterPath, start: false) }
        var heard: [AdvertisingReport] = []
        let deadline = MonotonicClock.now() + seconds
        while !stop.isSet && MonotonicClock.now() < deadline {
            bus.process(timeout: 0.25)
            let devices: [BlueZDevice]
            do { devices = try bus.devices(adapterPath) } catch {
                if stop.isSet { break }
                throw .bluez("GetManagedObjects", error)
            }
            // RSSI is there only for what this discovery (ours or another program's) heard.
            for report in devices.filter({ $0.rssi != nil }).compactMap(\.report) {
                let (device, isNew) = heard.hear(report)
                if isNew && until(device) { return heard }
            }
        }
        return heard
    }
}
