import Logging
import PhoneLinkContract
import PhoneLinkDelivery
import PhoneLinkWire
import Store
import SwiftProtobuf

/// What the pump of one connection reacts to: it alone owns the delivery window.
enum PumpEvent: Sendable {
    case welcome(mark: Int, snapshot: Int)
    case ack(through: Int, snapshot: Int)
    case outboxGrew
    case heartbeat
}

/// Why the wearable ended a connection itself.
struct LinkViolation: Error, CustomStringConvertible {
    var description: String
}

/// The shell of one connection's `DeliveryWindow`: carries its actions out against the data log's
/// outbox (read what to send, mark what the phone committed) and hands envelopes to `send`.
/// Throws `LinkViolation` when the phone breaks the contract, which ends the connection.
struct OutboxPump {
    let store: SessionLog
    /// With nothing else sent for this long, the newest snapshot goes again (the phone sees a live link).
    let heartbeatEvery: Double
    let logger: Logger
    let send: (Wearbridge_Link_V1_WearableMessage) -> Void
    private(set) var window: DeliveryWindow
    private var lastSent: Double

    init(
        store: SessionLog,
        head: Int,
        heartbeatEvery: Double,
        logger: Logger,
        now: Double,
        send: @escaping (Wearbridge_Link_V1_WearableMessage) -> Void
    ) {
        self.store = store
        self.heartbeatEvery = heartbeatEvery
        self.logger = logger
        self.send = send
        window = DeliveryWindow(head: head)
        lastSent = now
    }

    /// One event at `now` (monotonic s); `wallClock` stamps what is marked delivered (display only).
    mutating func handle(_ event: PumpEvent, now: Double, wallClock: Double) async throws {
        let actions: [DeliveryWindow.Action]
        switch event {
        case .welcome(let mark, let snapshot):
            actions = window.welcome(mark: mark, snapshot: snapshot)
        case .ack(let through, let snapshot):
            actions = window.ack(through: through, snapshot: snapshot)
        case .outboxGrew:
            actions = window.outboxGrew(to: try store.outboxHead())
        case .heartbeat:
            guard window.isStreaming, now - lastSent >= heartbeatEvery else { return }
            actions = window.outboxGrew(to: try store.outboxHead())
            if let snapshot = try store.newestSnapshot() {
                // Already delivered, most likely: the phone ignores it and acks, so both ends see a live link.
                send(Self.envelope(snapshot))
                lastSent = now
            }
        }
        for action in actions {
            switch action {
            case .sendSnapshot(let after):
                guard let snapshot = try store.newestSnapshot(), snapshot.seq > after else { continue }
                send(Self.envelope(snapshot))
                window.sent(seq: snapshot.seq, snapshot: true)
                lastSent = now
            case .send(let after, let limit):
                for record in try store.outboxMessages(after: after, limit: limit) {
                    send(Self.envelope(record))
                    window.sent(seq: record.seq, snapshot: false)
                    lastSent = now
                }
            case .markDelivered(let through, let snapshot):
                do {
                    try await store.markDelivered(through: through, snapshot: snapshot, at: wallClock)
                } catch {
                    // Not fatal: the phone's mark decides what is resent; only `outbox` shows it late.
                    logger.warning("cannot mark outbox messages delivered", metadata: ["error": "\(error)"])
                }
            case .close(let reason):
                logger.error("the phone broke the link's contract; reconnecting", metadata: ["reason": "\(reason)"])
                throw LinkViolation(description: reason)
            }
        }
    }

    static func envelope(_ record: OutboxRecord) -> Wearbridge_Link_V1_WearableMessage {
        .with {
            $0.envelope = .with {
                $0.seq = UInt64(record.seq)
                $0.class = record.messageClass.wire
                $0.createdAtMs = Int64((record.createdAt * 1000).rounded())
                $0.payload = (try? Wearbridge_Link_V1_Payload(serializedBytes: record.payload)) ?? .init()
            }
        }
    }
}
