import PhoneLinkDelivery
import PhoneLinkMessages

/// The phone's side of the link as one pure state machine, as `SessionEngine` is the wearable's:
/// the wearables' streams and messages, what the store read or committed, and the time go in; typed
/// actions come out, which `PhoneLoop` carries out one input at a time. It owns every decision the
/// link's shells made: each stream's marks and verdicts, when the link's last-seen time is written,
/// which stream is a wearable's, the commands waiting for an answer (sent, resent, given up), the
/// backfill's pacing, and which of a race partner's snapshots each wearable is handed.
public struct PhoneCore: Sendable {
    /// How often the commands the store holds are read (s).
    public static let commandsEvery = 0.25
    /// How often each connected wearable is asked for backfill it owes (s): requests the CLI queued,
    /// and any whose answer was lost with its connection.
    public static let backfillEvery = 1.0
    /// How often the shell is to send `.tick` (s): the partner's version is looked at this often.
    public static let tickEvery = 0.1

    /// A wearable's open stream.
    private struct Open: Sendable {
        var connection: PhoneConnection
        var stream: PhoneStream
        var feed = PartnerFeed()
        /// The envelope the shell holds until its commit: one at a time per stream.
        var inHand: EnvelopeFacts?
    }

    /// Hellos waiting for their marks.
    private var hellos: [PhoneConnection: (name: String, epoch: String, head: Int)] = [:]
    /// Open streams, by wearable.
    private var open: [String: Open] = [:]
    private var pending: PendingCommands
    /// The wearable each waiting command is for.
    private var commandWearable: [String: String] = [:]
    private var pacing = BackfillPacing()
    private var nextCommandRound = -Double.infinity
    private var nextBackfillRound = -Double.infinity
    private var actions: [PhoneAction] = []

    public init(retryEvery: Double = 8) {
        pending = PendingCommands(retryEvery: retryEvery)
    }

    /// The wearables with an open stream.
    public var connected: [PhoneConnection] { open.values.map(\.connection).sorted { $0.id < $1.id } }

    /// The outbox epoch of `connection`'s stream, while it is the wearable's.
    public func epoch(of connection: PhoneConnection) -> String? {
        guard let current = open[connection.wearable], current.connection == connection else { return nil }
        return current.stream.epoch
    }

    /// The commands waiting for an answer.
    public var waiting: [String: PendingCommands.Command] { pending.waiting }

    /// One input at `now` (Unix s, the phone's wall clock); what the shell must do, in order.
    public mutating func handle(_ input: PhoneInput, now: Double) -> [PhoneAction] {
        switch input {
        case .hello(let connection, let name, let epoch, let head): hello(connection, name, epoch, head)
        case .mark(let connection, let mark): opened(connection, mark, now)
        case .envelope(let connection, let facts): envelope(connection, facts, now)
        case .committed(let connection, let stored): committed(connection, stored, now)
        case .busy(let connection, let command, let message):
            if heard(connection, now) { actions.append(.recordBusy(command: command, message: message)) }
        case .rejected(let connection, let command, let message):
            if heard(connection, now) {
                pending.answered(command)
                commandWearable[command] = nil
                actions.append(.settle(command: command, .rejected(message)))
            }
        case .chunk(let connection):
            if heard(connection, now) { actions.append(.commitChunk(connection)) }
        case .chunkCommitted(let connection, let rows, let done):
            if pacing.received(from: connection.wearable, rows: rows, done: done) == .askNow {
                askBackfill(connection.wearable, now)
            }
        case .backfillNotAsked(let wearable): pacing.notSent(wearable)
        case .ignored(let connection, let why):
            if heard(connection, now) { actions.append(.ignored(connection, why)) }
        case .closed(let connection): closed(connection)
        case .queued(let queued): commandRound(queued, now)
        case .partner(let connection, let keys):
            guard open[connection.wearable]?.connection == connection else { break }
            let fresh = open[connection.wearable]!.feed.fresh(keys.map { ($0.run, $0.seq) })
            if !fresh.isEmpty { actions.append(.handPartner(connection, indices: fresh)) }
        case .tick(let version): tick(version, now)
        }
        var result: [PhoneAction] = []
        swap(&result, &actions)
        return result
    }

    private mutating func hello(_ connection: PhoneConnection, _ name: String, _ epoch: String, _ head: Int) {
        guard PhoneStream.accepts(epoch: epoch) else {
            actions.append(.refuse(connection, .badEpoch))
            return
        }
        hellos[connection] = (name, epoch, head)
        actions.append(.readMark(connection, epoch: epoch))
    }

    private mutating func opened(_ connection: PhoneConnection, _ mark: InboxMark, _ now: Double) {
        guard let hello = hellos.removeValue(forKey: connection) else { return }
        let stream: PhoneStream
        do {
            stream = try PhoneStream(epoch: hello.epoch, head: hello.head, stored: mark)
        } catch {
            actions.append(.refuse(connection, error))
            return
        }
        if let older = open[connection.wearable]?.connection { actions.append(.replace(older)) }
        open[connection.wearable] = Open(connection: connection, stream: stream)
        _ = open[connection.wearable]!.stream.heard(at: now)
        actions.append(.opened(connection, name: hello.name, stream: stream))
        actions.append(.welcome(connection, through: stream.ack.through, snapshot: stream.ack.snapshot))
        pending.reconnected(now)
        actions.append(.handRacesAgain(wearable: connection.wearable))
        askBackfill(connection.wearable, now)
    }

    /// A message arrived on `connection`: false when it is not the wearable's stream any more (the
    /// shell is told to end it); the link's last-seen time written at most every `PhoneStream.seenEvery`.
    private mutating func heard(_ connection: PhoneConnection, _ now: Double) -> Bool {
        guard open[connection.wearable]?.connection == connection else {
            actions.append(.end(connection))
            return false
        }
        if open[connection.wearable]!.stream.heard(at: now) { actions.append(.seen(wearable: connection.wearable)) }
        return true
    }

    private mutating func envelope(_ connection: PhoneConnection, _ facts: EnvelopeFacts, _ now: Double) {
        guard heard(connection, now) else { return }
        let wearable = connection.wearable
        let verdict = open[wearable]!.stream.envelope(
            seq: facts.seq,
            isSnapshot: facts.messageClass.map { $0 == .snapshot },
            impossibility: facts.messageClass == .snapshot ? facts.impossibility : nil,
            knownKind: facts.kind != nil
        )
        switch verdict {
        case .store(let unknownKind):
            open[wearable]!.inHand = facts
            actions.append(.commit(connection, seq: facts.seq, unknownKind: unknownKind))
            return
        case .duplicate: actions.append(.dropped(connection, seq: facts.seq, .duplicate))
        case .staleSnapshot: actions.append(.dropped(connection, seq: facts.seq, .staleSnapshot))
        case .invalid(let why): actions.append(.dropped(connection, seq: facts.seq, .invalid(why)))
        case .impossible(let why): actions.append(.dropped(connection, seq: facts.seq, .impossible(why)))
        }
        ack(connection)
    }

    private mutating func committed(_ connection: PhoneConnection, _ stored: Bool, _ now: Double) {
        let wearable = connection.wearable
        guard open[wearable]?.connection == connection, let facts = open[wearable]!.inHand else {
            actions.append(.end(connection))
            return
        }
        open[wearable]!.inHand = nil
        open[wearable]!.stream.committed(seq: facts.seq, isSnapshot: facts.messageClass == .snapshot)
        if stored, facts.kind == .sessionEnded { askBackfill(wearable, now) }
        if let command = facts.answers {
            pending.answered(command)
            commandWearable[command] = nil
        }
        ack(connection)
    }

    private mutating func ack(_ connection: PhoneConnection) {
        guard let stream = open[connection.wearable]?.stream else { return }
        actions.append(.ack(connection, through: stream.ack.through, snapshot: stream.ack.snapshot))
    }

    private mutating func closed(_ connection: PhoneConnection) {
        hellos[connection] = nil
        guard open[connection.wearable]?.connection == connection else { return }
        open[connection.wearable] = nil
        pacing.disconnected(connection.wearable)
        actions.append(.disconnected(wearable: connection.wearable))
    }

    /// Asks `wearable` for its next chunk unless one is in flight (and not taken as lost).
    private mutating func askBackfill(_ wearable: String, _ now: Double) {
        guard let connection = open[wearable]?.connection, pacing.mayAsk(wearable, now: now) else { return }
        pacing.asked(wearable, at: now)
        actions.append(.askBackfill(connection))
    }

    private mutating func tick(_ version: Int?, _ now: Double) {
        if now >= nextCommandRound {
            nextCommandRound = now + Self.commandsEvery
            actions.append(.readCommands)
        }
        if now >= nextBackfillRound {
            nextBackfillRound = now + Self.backfillEvery
            for connection in connected { askBackfill(connection.wearable, now) }
        }
        if let version {
            for connection in connected where open[connection.wearable]!.feed.needsReading(version: version) {
                actions.append(.readPartner(connection))
            }
        }
    }

    /// The store's unanswered commands at `now`: new ones taken up, the late settled as not
    /// answered, what is due sent to its wearable if connected.
    private mutating func commandRound(_ queued: [PhoneInput.QueuedFacts], _ now: Double) {
        for item in queued where pending.waiting[item.command.id] == nil {
            commandWearable[item.command.id] = item.wearable
            pending.add(item.command)
        }
        for late in pending.expired(now) {
            commandWearable[late.id] = nil
            actions.append(.settle(command: late.id, .notAnswered))
        }
        for command in pending.due(now) {
            guard let wearable = commandWearable[command.id], let connection = open[wearable]?.connection else {
                continue
            }
            actions.append(.send(command, to: connection))
        }
    }
}
