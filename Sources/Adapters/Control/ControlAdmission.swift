/// Who holds the control socket: at most `capacity` connections, so that a local user opening
/// thousands cannot grow the daemon's memory. A newcomer past the cap takes the place of an idle
/// connection of the client holding the most (a flood, not `ctl status`, gives way); a client
/// only displaces its own connections once they have been idle `grace` seconds. Pure: time and
/// the peer's uid are inputs.
public struct ControlAdmission: Sendable {
    public struct Limits: Sendable, Equatable {
        /// `ctl` opens one connection per command; 32 is far more than a person types at once.
        public var capacity: Int
        /// How long a new connection of the same client is safe from displacement (s): time to
        /// send its line.
        public var grace: Double

        public init(capacity: Int = 32, grace: Double = 1) {
            self.capacity = max(1, capacity)
            self.grace = grace
        }
    }

    public enum Decision: Sendable, Equatable {
        /// Take it; close `displacing` first, if any.
        case admit(displacing: Int?)
        /// Every place is busy answering or too new to give way: answer "busy" and close.
        case refuse
    }

    private struct Held {
        var client: UInt32
        var busy: Bool
        var since: Double
    }

    public let limits: Limits
    private var held: [Int: Held] = [:]
    public private(set) var refused = 0
    public private(set) var displaced = 0

    public init(limits: Limits = Limits()) {
        self.limits = limits
    }

    public var count: Int { held.count }

    /// Connection `id` of `client` (its uid) arrived at `now`.
    public mutating func arrive(_ id: Int, client: UInt32, at now: Double) -> Decision {
        var displacing: Int?
        if held.count >= limits.capacity {
            guard let victim = victim(for: client, at: now) else {
                refused += 1
                return .refuse
            }
            held[victim] = nil
            displaced += 1
            displacing = victim
        }
        held[id] = Held(client: client, busy: false, since: now)
        return .admit(displacing: displacing)
    }

    /// A request is being answered: not to be displaced until it has its reply.
    public mutating func busy(_ id: Int) {
        held[id]?.busy = true
    }

    /// The reply is written; idle again from `now`.
    public mutating func idle(_ id: Int, at now: Double) {
        held[id]?.busy = false
        held[id]?.since = now
    }

    public mutating func left(_ id: Int) {
        held[id] = nil
    }

    /// The oldest idle connection of the client holding the most; one of the arriving client's
    /// own only past its grace.
    private func victim(for client: UInt32, at now: Double) -> Int? {
        var perClient: [UInt32: Int] = [:]
        for connection in held.values { perClient[connection.client, default: 0] += 1 }
        let candidates = held.filter { _, connection in
            !connection.busy && (connection.client != client || now - connection.since >= limits.grace)
        }
        return candidates.min { a, b in
            let (countA, countB) = (perClient[a.value.client] ?? 0, perClient[b.value.client] ?? 0)
            if countA != countB { return countA > countB }
            return (a.value.since, a.key) < (b.value.since, b.key)
        }?.key
    }
}
