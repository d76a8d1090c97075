/// The wearable's side of one link connection, as a pure state machine: what to send after the
/// phone's welcome, what an ack makes delivered, and when the phone is talking nonsense.
///
/// Critical and notice messages are sent in sequence order after the phone's mark, at most
/// `window` unacknowledged at a time; the newest snapshot goes first. Acks are cumulative and only
/// ever mark delivered what was sent on this connection (or lies at or below the welcome's mark).
public struct DeliveryWindow: Sendable {
    public enum Action: Sendable, Equatable {
        /// Send the newest snapshot if its seq is above this.
        case sendSnapshot(after: Int)
        /// Send critical and notice messages after this seq, up to `limit` of them.
        case send(after: Int, limit: Int)
        /// The phone has committed these: mark them delivered in the outbox.
        case markDelivered(through: Int, snapshot: Int)
        /// Protocol violation: close this connection (and retry later), saying why.
        case close(reason: String)
    }

    enum State: Sendable, Equatable {
        case awaitingWelcome
        case streaming(Streaming)
        case closed
    }

    struct Streaming: Sendable, Equatable {
        var acked: Int
        var snapshotAcked: Int
        /// Sequence numbers sent and not yet acknowledged, in order.
        var inFlight: [Int]
        var lastSent: Int
        var snapshotSent: Int
    }

    public let window: Int
    /// The highest seq the outbox held when the connection began (a mark above it is a lie).
    public private(set) var head: Int
    private(set) var state = State.awaitingWelcome

    public init(head: Int, window: Int = 256) {
        precondition(window > 0)
        self.head = head
        self.window = window
    }

    public var isStreaming: Bool { if case .streaming = state { true } else { false } }
    public var unacknowledged: Int { if case .streaming(let s) = state { s.inFlight.count } else { 0 } }

    /// The phone's welcome: its marks for this wearable and epoch.
    public mutating func welcome(mark: Int, snapshot: Int) -> [Action] {
        guard case .awaitingWelcome = state else { return close("a second welcome on one connection") }
        guard mark <= head else {
            return close("the phone claims messages through seq \(mark), but the outbox never went past \(head)")
        }
        state = .streaming(
            Streaming(acked: mark, snapshotAcked: snapshot, inFlight: [], lastSent: mark, snapshotSent: snapshot)
        )
        return [
            .markDelivered(through: mark, snapshot: min(snapshot, head)), .sendSnapshot(after: snapshot),
            .send(after: mark, limit: window),
        ]
    }

    /// The outbox grew to `head`: send what the window allows.
    public mutating func outboxGrew(to head: Int) -> [Action] {
        self.head = max(self.head, head)
        guard case .streaming(let s) = state else { return [] }
        var actions: [Action] = [.sendSnapshot(after: s.snapshotSent)]
        if s.inFlight.count < window { actions.append(.send(after: s.lastSent, limit: window - s.inFlight.count)) }
        return actions
    }

    /// A message went out on this connection.
    public mutating func sent(seq: Int, snapshot: Bool) {
        guard case .streaming(var s) = state else { return }
        if snapshot {
            s.snapshotSent = max(s.snapshotSent, seq)
        } else if seq > s.lastSent {
            s.inFlight.append(seq)
            s.lastSent = seq
        }
        state = .streaming(s)
    }

    /// The phone committed everything through `through`, and the snapshot `snapshot`.
    public mutating func ack(through: Int, snapshot: Int) -> [Action] {
        guard case .streaming(var s) = state else { return close("an ack before the welcome") }
        guard through <= s.lastSent else {
            return close("the phone acknowledges seq \(through), but only \(s.lastSent) was sent")
        }
        guard snapshot <= max(s.snapshotSent, s.snapshotAcked) else {
            return close("the phone acknowledges snapshot \(snapshot), but only \(s.snapshotSent) was sent")
        }
        guard through > s.acked || snapshot > s.snapshotAcked else { return [] }
        s.acked = max(s.acked, through)
        s.snapshotAcked = max(s.snapshotAcked, snapshot)
        let before = s.inFlight.count
        s.inFlight.removeAll { $0 <= s.acked }
        let reopened = before >= window && s.inFlight.count < window
        state = .streaming(s)
        var actions: [Action] = [.markDelivered(through: s.acked, snapshot: s.snapshotAcked)]
        if reopened { actions.append(.send(after: s.lastSent, limit: window - s.inFlight.count)) }
        return actions
    }

    private mutating func close(_ reason: String) -> [Action] {
        state = .closed
        return [.close(reason: reason)]
    }
}
