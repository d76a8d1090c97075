import SessionCore
import TrackCore

/// The phone's commands waiting for an answer: resent with the same id every `retryEvery` until
/// answered, given up at their deadline with a clear "not answered".
public struct PendingCommands: Sendable {
    public struct Command: Sendable, Equatable {
        public var id: String
        public var kind: SessionCommand
        public var activity: Activity?
        /// When it was issued: `age` on the wire is measured from here. The phone's CLI and server
        /// share one machine's clock, the one the CLI queued it by.
        public var issuedAt: Double
        public var validFor: Double
        public var deadline: Double
        /// A race's command: its race or partner event, encoded as the wire's `Command` fields.
        public var body: [UInt8]?
        var nextSend: Double
        /// The order it was taken up in (ties of `issuedAt` keep the queue's order).
        var order = 0

        public init(
            id: String,
            kind: SessionCommand,
            activity: Activity?,
            issuedAt: Double,
            validFor: Double,
            deadline: Double,
            body: [UInt8]? = nil
        ) {
            self.body = body
            self.id = id
            self.kind = kind
            self.activity = activity
            self.issuedAt = issuedAt
            self.validFor = validFor
            self.deadline = deadline
            nextSend = issuedAt
        }
    }

    public let retryEvery: Double
    public private(set) var waiting: [String: Command] = [:]
    private var added = 0

    public init(retryEvery: Double = 8) {
        self.retryEvery = retryEvery
    }

    public mutating func add(_ command: Command) {
        var command = command
        added += 1
        command.order = added
        waiting[command.id] = command
    }

    /// Commands to (re)send now on a live connection; each is next due `retryEvery` later. Partner
    /// events go one at a time, the next only once the one before is answered, so that the wearable
    /// applies them in order even across a lost connection.
    public mutating func due(_ now: Double) -> [Command] {
        let firstEvent = waiting.values.filter { $0.kind == .partnerEvent }.min(by: Self.earlier)?.id
        var result: [Command] = []
        for (id, command) in waiting where command.nextSend <= now && command.deadline > now {
            if command.kind == .partnerEvent, id != firstEvent { continue }
            result.append(command)
            waiting[id]?.nextSend = now + retryEvery
        }
        return result.sorted(by: Self.earlier)
    }

    private static func earlier(_ left: Command, _ right: Command) -> Bool {
        (left.issuedAt, left.order) < (right.issuedAt, right.order)
    }

    /// A connection (re)opened: everything still waiting goes again at once.
    public mutating func reconnected(_ now: Double) {
        for id in waiting.keys { waiting[id]?.nextSend = now }
    }

    /// The answer arrived (or a final one): nothing more to send.
    @discardableResult
    public mutating func answered(_ id: String) -> Command? { waiting.removeValue(forKey: id) }

    /// Commands whose deadline passed unanswered: removed, for a "not answered" result.
    public mutating func expired(_ now: Double) -> [Command] {
        let gone = waiting.values.filter { $0.deadline <= now }
        for command in gone { waiting[command.id] = nil }
        return gone
    }
}
