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
        var nextSend: Double

        public init(
            id: String,
            kind: SessionCommand,
            activity: Activity?,
            issuedAt: Double,
            validFor: Double,
            deadline: Double
        ) {
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

    public init(retryEvery: Double = 8) {
        self.retryEvery = retryEvery
    }

    public mutating func add(_ command: Command) { waiting[command.id] = command }

    /// Commands to (re)send now on a live connection; each is next due `retryEvery` later.
    public mutating func due(_ now: Double) -> [Command] {
        var result: [Command] = []
        for (id, command) in waiting where command.nextSend <= now && command.deadline > now {
            result.append(command)
            waiting[id]?.nextSend = now + retryEvery
        }
        return result.sorted { $0.issuedAt < $1.issuedAt }
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
