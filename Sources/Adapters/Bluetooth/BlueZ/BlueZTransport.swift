import ATT
import GATT

#if canImport(Glibc)
import Glibc
#endif

/// A connection carried by bluetoothd: the plan's notifications arrive on AcquireNotify sockets
/// (one value per read), its reads are ReadValue calls. bluetoothd did discovery and subscription,
/// so `start` reports the subscription at once.
public final class BlueZTransport: GATTTransport, @unchecked Sendable {
    // Sendable by discipline: used from the link's one thread, closed by it.
    /// Nil only where no reads are planned and nothing is to be disconnected (tests).
    let bus: BlueZBus?
    let devicePath: String
    /// The notifying characteristics: descriptor and which one it is.
    let notifications: [(descriptor: Int32, uuid: BluetoothUUID)]
    /// The characteristics the plan reads: UUID and object path.
    let readable: [BluetoothUUID: String]
    let planReads: [BluetoothUUID]
    let mtu: UInt16
    let requestTimeout: Double
    /// This side asked for the link (it was down): this side ends it.
    let connectedHere: Bool
    private var closed = false

    init(
        bus: BlueZBus?,
        devicePath: String,
        notifications: [(descriptor: Int32, uuid: BluetoothUUID)],
        readable: [BluetoothUUID: String],
        planReads: [BluetoothUUID],
        mtu: UInt16,
        requestTimeout: Double,
        connectedHere: Bool
    ) {
        self.bus = bus
        self.devicePath = devicePath
        self.notifications = notifications
        self.readable = readable
        self.planReads = planReads
        self.mtu = mtu
        self.requestTimeout = requestTimeout
        self.connectedHere = connectedHere
    }

    deinit { close() }

    public var isSubscribed: Bool { !closed }

    public func start(now: Double) -> [GATTClient.Output] {
        var outputs: [GATTClient.Output] = [.subscribed(GATTLayout(mtu: mtu))]
        for uuid in planReads where readable[uuid] != nil { outputs += read(uuid, now: now) }
        return outputs
    }

    public func next(timeout: Double, clock: () -> Double) throws(BearerError) -> [GATTClient.Output] {
        var pollers = notifications.map { pollfd(fd: $0.descriptor, events: Int16(POLLIN) | 0x2000, revents: 0) }
        let ready = poll(&pollers, nfds_t(pollers.count), Int32(max(0, min(timeout, 3600)) * 1000))
        if ready < 0 {
            if errno == EINTR { return [] }
            throw .failed("poll", errno: errno)
        }
        var outputs: [GATTClient.Output] = []
        var buffer = [UInt8](repeating: 0, count: 1024)
        for (index, poller) in pollers.enumerated() where poller.revents != 0 {
            let count = buffer.withUnsafeMutableBytes { recv(poller.fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if count > 0 {
                outputs.append(.value(notifications[index].uuid, Array(buffer[0..<count])))
            } else if count == 0 || (errno != EAGAIN && errno != EINTR) {
                // bluetoothd closes the socket when the link goes (the peer, or a program's Disconnect).
                throw .closed
            }
        }
        return outputs
    }

    public func read(_ uuid: BluetoothUUID, now: Double) -> [GATTClient.Output] {
        guard let path = readable[uuid], let bus else { return [] }
        do {
            return [.read(uuid, try bus.readValue(path, timeout: requestTimeout))]
        } catch {
            return [.ignored("read of \(uuid) through bluetoothd: \(error)")]
        }
    }

    public func close() {
        guard !closed else { return }
        closed = true
        for notification in notifications { _ = Glibc.close(notification.descriptor) }
        // A link someone else made (another program's, bluetoothd's auto-connect) is theirs to end.
        if connectedHere { BlueZBus.disconnect(devicePath) }
    }
}
