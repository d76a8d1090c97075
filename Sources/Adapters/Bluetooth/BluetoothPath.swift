import ATT
import GATT
import Logging

/// How the links reach straps, footpods and treadmills.
public enum BluetoothPath: String, Sendable, Equatable, CaseIterable {
    /// Through bluetoothd when it holds org.bluez on the system bus, else the kernel's sockets;
    /// decided again at every attempt, so a bluetoothd started or stopped later is followed.
    case auto
    /// Through bluetoothd's D-Bus API only: discovery, Connect, bonding, AcquireNotify.
    case bluez
    /// The kernel's sockets only: a raw HCI LE scan and an L2CAP ATT socket. Only where nothing
    /// else uses Bluetooth: the scan confuses bluetoothd's and the kernel's own discovery.
    case kernel
}

/// One attempt's means of reaching a sensor, on the path chosen for it.
struct SensorRadio {
    /// `.bluez` or `.kernel`, never `.auto`.
    let path: BluetoothPath
    let adapter: String
    let connectTimeout: Double
    let requestTimeout: Double
    let logger: Logger

    /// Resolves `auto` by asking the system bus whether bluetoothd runs.
    static func choose(
        _ preference: BluetoothPath,
        adapter: String,
        connectTimeout: Double,
        requestTimeout: Double,
        logger: Logger
    ) -> SensorRadio {
        var path = preference
        if preference == .auto {
            path = (try? BlueZBus().bluetoothdRunning()) == true ? .bluez : .kernel
        }
        return SensorRadio(
            path: path,
            adapter: adapter,
            connectTimeout: connectTimeout,
            requestTimeout: requestTimeout,
            logger: logger
        )
    }

    /// Listens for up to `seconds`, stopping early when `until` holds for a report.
    func scan(
        seconds: Double,
        stop: StopFlag,
        until: (AdvertisingReport) -> Bool
    ) throws(BluetoothError)
        -> [AdvertisingReport]
    {
        switch path {
        case .bluez: try BlueZScanner(adapter: adapter).scan(seconds: seconds, stop: stop, until: until)
        default: try HCIScanner(adapter: adapter).scan(seconds: seconds, stop: { until($0) || stop.isSet })
        }
    }

    /// A GATT transport to `peer` with `plan` subscribed.
    func connect(
        to peer: BluetoothAddress,
        plan: GATTPlan,
        stop: StopFlag
    ) throws(BluetoothError) -> any GATTTransport {
        switch path {
        case .bluez:
            return try BlueZConnector(
                adapter: adapter,
                connectTimeout: connectTimeout,
                requestTimeout: requestTimeout,
                logger: logger
            ).connect(to: peer, plan: plan, stop: stop)
        default:
            let bearer = try L2CAPConnector(adapter: adapter, connectTimeout: connectTimeout).connect(to: peer) {
                stop.isSet
            }
            return ATTTransport(
                bearer: bearer,
                client: GATTClient(plan: plan, requestTimeout: requestTimeout)
            )
        }
    }
}

extension BluetoothPath {
    /// Listens for `seconds` on this path (`auto` decided now); every device heard.
    public func scan(adapter: String, seconds: Double) throws(BluetoothError) -> [AdvertisingReport] {
        try SensorRadio.choose(
            self,
            adapter: adapter,
            connectTimeout: seconds,
            requestTimeout: 5,
            logger: Logger(label: "wearbridge.scan")
        ).scan(seconds: seconds, stop: StopFlag(), until: { _ in false })
    }
}
