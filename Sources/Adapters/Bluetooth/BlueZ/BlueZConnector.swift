import ATT
import GATT
import Logging
import ProcessClock

#if canImport(Glibc)
import Glibc
#endif

/// Connects to a sensor through bluetoothd: finds its device object (a discovery when bluetoothd
/// has not heard it yet), `Device1.Connect` unless some program already holds the link (bluetoothd
/// shares it), waits for its GATT database (cached for known devices), bonds through the agent when
/// the sensor demands it, and acquires the plan's notifications.
struct BlueZConnector {
    var adapter: String
    var connectTimeout: Double
    var requestTimeout: Double
    let logger: Logger

    var adapterPath: String { "/org/bluez/\(adapter)" }

    func connect(to peer: BluetoothAddress, plan: GATTPlan, stop: StopFlag) throws(BluetoothError) -> BlueZTransport {
        let bus = try open(stop: stop)
        let devicePath = BlueZDevice.path(adapter: adapterPath, address: peer)
        var device = try find(peer, at: devicePath, bus: bus, stop: stop)
        let connectedHere = !device.connected
        // A sensor not yet bonded may demand it (bluetoothd then pairs on its own and asks the default
        // agent): this bus's agent answers for it, and for nothing else.
        if !device.paired {
            do { try bus.registerAgent(for: devicePath) } catch {
                logger.warning("no pairing agent", metadata: ["device": "\(peer)", "error": "\(error)"])
            }
        }
        if !device.connected {
            do {
                try bus.call(devicePath, "org.bluez.Device1", "Connect", timeout: min(connectTimeout, 25))
            } catch {
                if error.name != .already {
                    // bluetoothd goes on connecting after a caller gave up (a stop, a timeout), holding
                    // the controller's connection attempt: Disconnect cancels it.
                    BlueZBus.disconnect(devicePath)
                    if stop.isSet { throw .cancelled }
                    throw .bluez("Connect", error)
                }
            }
        }
        // The services come after the link (at once from bluetoothd's cache for a known device).
        let deadline = MonotonicClock.now() + requestTimeout
        while !device.servicesResolved {
            if stop.isSet { throw .cancelled }
            if MonotonicClock.now() >= deadline {
                throw .timedOut("bluetoothd resolved no services of \(peer) within \(formatSeconds(requestTimeout)) s")
            }
            bus.process(timeout: 0.1)
            device = try lookUp(devicePath, bus: bus) ?? device
            if !device.connected && !connectedHere {
                throw .bluez("Connect", BlueZError("org.bluez.Error.Failed: the link went down"))
            }
        }
        let characteristics: [BlueZCharacteristic]
        do { characteristics = try bus.characteristics(devicePath) } catch { throw .bluez("GetManagedObjects", error) }
        var notifications: [(descriptor: Int32, uuid: BluetoothUUID)] = []
        var mtu: UInt16 = 23
        var readable: [BluetoothUUID: String] = [:]
        var bonded = device.paired
        do throws(BluetoothError) {
            for service in plan.services {
                let offered = characteristics.filter { $0.service == service.uuid }
                if offered.isEmpty && service.required {
                    throw BluetoothError.refused(
                        "the \(plan.peer) offers no \(service.name) service (\(service.uuid.spelled))"
                    )
                }
                for wanted in service.subscribe {
                    guard let characteristic = offered.first(where: { $0.uuid == wanted.uuid && $0.canNotify }) else {
                        if wanted.required {
                            throw BluetoothError.refused(
                                "the \(plan.peer) has no notifying \(wanted.name) (\(wanted.uuid.spelled))"
                            )
                        }
                        continue
                    }
                    let acquired = try acquire(characteristic, wanted, device: devicePath, bonded: &bonded, bus: bus)
                    notifications.append((acquired.descriptor, wanted.uuid))
                    mtu = max(mtu, acquired.mtu)
                }
                for uuid in service.read {
                    if let characteristic = offered.first(where: { $0.uuid == uuid && $0.canRead }) {
                        readable[uuid] = characteristic.path
                    }
                }
            }
        } catch {
            for notification in notifications { _ = Glibc.close(notification.descriptor) }
            if connectedHere { BlueZBus.disconnect(devicePath) }
            throw error
        }
        // bluetoothd paired on its own (the sensor refused an unencrypted link): trust it, so that it
        // reconnects with its keys and never asks again.
        if !device.paired, let now = try? lookUp(devicePath, bus: bus), now.paired {
            try? bus.set(devicePath, "org.bluez.Device1", "Trusted", true)
            noteBonded(devicePath, bus: bus)
        }
        return BlueZTransport(
            bus: bus,
            devicePath: devicePath,
            notifications: notifications,
            readable: readable,
            planReads: plan.services.flatMap(\.read),
            mtu: mtu,
            requestTimeout: requestTimeout,
            connectedHere: connectedHere
        )
    }

    /// The system bus with bluetoothd on it, and this adapter powered.
    func open(stop: StopFlag) throws(BluetoothError) -> BlueZBus {
        let bus: BlueZBus
        do { bus = try BlueZBus() } catch { throw .bluez("the system D-Bus", error) }
        stop.onSet { bus.cancel() }
        let powered: Bool?
        do { powered = try bus.adapterPowered(adapterPath) } catch { throw .bluez("Adapter1", error) }
        guard let powered else { throw .noAdapter(adapter) }
        if !powered {
            do { try bus.set(adapterPath, "org.bluez.Adapter1", "Powered", true) } catch {
                throw .bluez("powering \(adapter) on", error)
            }
        }
        return bus
    }

    private func lookUp(_ path: String, bus: BlueZBus) throws(BluetoothError) -> BlueZDevice? {
        do { return try bus.devices(adapterPath).first { $0.path == path } } catch {
            throw .bluez("GetManagedObjects", error)
        }
    }

    /// The device object, after a discovery when bluetoothd does not know it yet (it makes device
    /// objects only for what it has heard).
    private func find(
        _ peer: BluetoothAddress,
        at path: String,
        bus: BlueZBus,
        stop: StopFlag
    ) throws(BluetoothError) -> BlueZDevice {
        if let known = try lookUp(path, bus: bus) { return known }
        let heard = try BlueZScanner(adapter: adapter).scan(
            bus: bus,
            seconds: connectTimeout,
            stop: stop,
            until: { $0.address == peer }
        )
        guard heard.contains(where: { $0.address == peer }), let found = try lookUp(path, bus: bus) else {
            if stop.isSet { throw .cancelled }
            throw .timedOut("\(peer) not heard within \(formatSeconds(connectTimeout)) s")
        }
        return found
    }

    /// AcquireNotify; a sensor that demands a bond is paired (just works, through this bus's agent)
    /// and trusted once, then asked again. Notifications another program acquired make it held.
    private func acquire(
        _ characteristic: BlueZCharacteristic,
        _ wanted: GATTPlan.Wanted,
        device: String,
        bonded: inout Bool,
        bus: BlueZBus
    ) throws(BluetoothError) -> (descriptor: Int32, mtu: UInt16) {
        do {
            return try bus.acquireNotify(characteristic.path)
        } catch {
            switch error.name {
            case .notPermitted:
                throw .held("another program holds its \(wanted.name) notifications through bluetoothd (\(error))")
            case .authentication where !bonded:
                try pair(device, bus: bus)
                bonded = true
                do { return try bus.acquireNotify(characteristic.path) } catch {
                    throw .bluez("AcquireNotify after bonding", error)
                }
            default:
                throw .bluez("AcquireNotify(\(wanted.name))", error)
            }
        }
    }

    /// Bonds with the sensor through bluetoothd (keys kept by it), and trusts it so that it
    /// reconnects without asking.
    func pair(_ device: String, bus: BlueZBus) throws(BluetoothError) {
        do throws(BlueZError) {
            try bus.registerAgent(for: device)
            do { try bus.call(device, "org.bluez.Device1", "Pair", timeout: 30) } catch {
                if error.name != .already { throw error }
            }
            try bus.set(device, "org.bluez.Device1", "Trusted", true)
        } catch {
            throw .bluez("bonding", error)
        }
        noteBonded(device, bus: bus)
    }

    /// The journal's line for a bond made, with what the agent answered.
    private func noteBonded(_ device: String, bus: BlueZBus) {
        let counts = bus.agentCounts
        logger.notice(
            "bonded through bluetoothd",
            metadata: [
                "device": "\(device)", "agent_confirmed": "\(counts.confirmed)", "agent_refused": "\(counts.refused)",
            ]
        )
    }
}
