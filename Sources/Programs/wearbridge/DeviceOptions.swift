import ATT
import ArgumentParser
import Bluetooth

/// What the Bluetooth field tools (`strap`, `sensor`) are told: which device, on which adapter,
/// for how long, and how to print; one reading of it for both.
struct DeviceOptions: ParsableArguments {
    @Argument(help: "The device's address as `wearbridge scan` prints it, or first-seen.")
    var address: String

    @Option(help: "The address type: random (most straps and sensors) or public.")
    var type: BluetoothAddress.Kind = .random

    @Option(help: "Stop after this many seconds (default: run until interrupted).")
    var seconds: Double?

    @Option(help: "The adapter.")
    var adapter = "hci0"

    @Option(help: "auto (through bluetoothd when it runs), bluez or kernel.")
    var stack: BluetoothPath = .auto

    @Flag(help: "One JSON object per line: values with their payload, events.")
    var json = false

    func validate() throws {
        if address != "first-seen", BluetoothAddress(address, kind: type) == nil {
            throw ValidationError("\"\(address)\" is not an address like F1:F1:F1:F1:F1:F1 (or first-seen)")
        }
    }

    /// The address to connect to; nil for the first device of its kind heard.
    var peer: BluetoothAddress? { BluetoothAddress(address, kind: type) }

    /// Runs `link` until interrupted, or for `seconds`.
    func follow(_ link: @escaping @Sendable () async -> Void) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await link() }
            if let seconds {
                group.addTask { try? await Task.sleep(for: .seconds(seconds)) }
                await group.next()
                group.cancelAll()
            }
        }
    }
}

extension BluetoothAddress.Kind: ExpressibleByArgument {}
