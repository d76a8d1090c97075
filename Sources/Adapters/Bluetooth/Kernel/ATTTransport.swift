import ATT
import GATT

/// The kernel's ATT bearer with the GATT client driving it: the client's PDUs sent here, the
/// peer's fed back to it.
public struct ATTTransport: GATTTransport {
    public let bearer: ATTBearer
    public private(set) var client: GATTClient

    public init(bearer: ATTBearer, client: GATTClient) {
        self.bearer = bearer
        self.client = client
    }

    public var isSubscribed: Bool { client.isSubscribed }

    public mutating func start(now: Double) -> [GATTClient.Output] { sent(client.start(now: now)) }

    public mutating func next(timeout: Double, clock: () -> Double) throws(BearerError) -> [GATTClient.Output] {
        let pdu = try bearer.receive(timeout: timeout)
        let now = clock()
        var outputs = pdu.map { sent(client.receive($0, now: now)) } ?? []
        outputs += sent(client.tick(now: now))
        return outputs
    }

    public mutating func read(_ uuid: BluetoothUUID, now: Double) -> [GATTClient.Output] {
        sent(client.read(uuid, now: now))
    }

    public func close() { bearer.close() }

    /// Sends the PDUs among `outputs` and passes on the rest; a failed send ends the connection.
    private func sent(_ outputs: [GATTClient.Output]) -> [GATTClient.Output] {
        var rest: [GATTClient.Output] = []
        for output in outputs {
            guard case .send(let pdu) = output else {
                rest.append(output)
                continue
            }
            do { try bearer.send(pdu) } catch {
                rest.append(.failed(error.description))
                return rest
            }
        }
        return rest
    }
}
