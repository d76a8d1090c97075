import ATT
import GATT

/// One connection's GATT traffic, whoever carries it: the kernel's ATT socket driven by
/// `GATTClient` (`ATTTransport`), or bluetoothd over D-Bus (`BlueZTransport`). Either way the
/// connection sees the same outputs: subscribed, values, reads, failures.
public protocol GATTTransport {
    /// Begins (or reports) discovery and subscription.
    mutating func start(now: Double) -> [GATTClient.Output]
    /// Waits at most `timeout` s for traffic; what came, and what the passage of time decided.
    mutating func next(timeout: Double, clock: () -> Double) throws(BearerError) -> [GATTClient.Output]
    /// Reads a characteristic of the plan (the battery, again).
    mutating func read(_ uuid: BluetoothUUID, now: Double) -> [GATTClient.Output]
    var isSubscribed: Bool { get }
    /// Lets go of the connection's descriptors (and, where this side made the link, the link).
    func close()
}
