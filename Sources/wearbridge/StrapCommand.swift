import ATT
import ArgumentParser
import Bluetooth
import HeartRate
import Logging

/// `wearbridge strap`: connect to a strap and print its beats and events, without the daemon.
struct StrapCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "strap",
        abstract: "Connect to a heart-rate strap and print every beat and link event (a field tool).",
        discussion: "Reconnects like the daemon does. ADDRESS as printed by `wearbridge scan`, or \"first-seen\"."
    )

    @Argument(help: "The strap's address, or first-seen.")
    var address: String

    @Option(help: "The address type: random (most straps) or public.")
    var type: BluetoothAddress.Kind = .random

    @Option(help: "Stop after this many seconds (default: run until interrupted).")
    var seconds: Double?

    @Option(help: "The adapter.")
    var adapter = "hci0"

    @Flag(help: "One JSON object per line: beats with their payload, events.")
    var json = false

    @OptionGroup var logging: LoggingOptions

    func validate() throws {
        if address != "first-seen", BluetoothAddress(address, kind: type) == nil {
            throw ValidationError("\"\(address)\" is not an address like F1:F1:F1:F1:F1:F1 (or first-seen)")
        }
    }

    func run() async throws {
        let logger = logging.bootstrap(label: "wearbridge.strap", default: .warning)
        let target: StrapLink.Target = BluetoothAddress(address, kind: type).map { .address($0) } ?? .firstSeen
        let link = StrapLink(target: target, adapter: adapter, logger: logger)
        let json = self.json
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                await link.run { event in
                    StandardOutput.line(json ? StrapEventText.json(event) : StrapEventText.text(event))
                    StandardOutput.flush()
                }
            }
            if let seconds {
                group.addTask { try? await Task.sleep(for: .seconds(seconds)) }
                await group.next()
                group.cancelAll()
            }
        }
    }
}

extension BluetoothAddress.Kind: ExpressibleByArgument {}
