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

    @OptionGroup var device: DeviceOptions

    @OptionGroup var logging: LoggingOptions

    func run() async throws {
        let logger = logging.bootstrap(label: "wearbridge.strap", default: .warning)
        let target: StrapLink.Target = device.peer.map { .address($0) } ?? .firstSeen
        let link = StrapLink(target: target, adapter: device.adapter, path: device.stack, logger: logger)
        let json = device.json
        await device.follow {
            await link.run { event in
                StandardOutput.line(json ? StrapEventText.json(event) : StrapEventText.text(event))
                StandardOutput.flush()
            }
        }
    }
}
