import Logging
import PhoneCore
import PhoneLinkContract
import PhoneLinkDelivery
import PhoneLinkMessages
import PhoneLinkWire
import ProcessClock
import SwiftProtobuf

/// The phone's shell around `PhoneCore`, as `EngineLoop` is the wearable's: one input at a time,
/// the wall clock read once per input, each action carried out (the inbox's reads and commits, the
/// streams' writes, the race's reads) and what it yields handed back to the core.
struct PhoneLoop {
    var core: PhoneCore
    let inbox: Inbox
    let races: (any RaceLink)?
    let counters: PhoneCounters
    /// Rows a backfill chunk may hold.
    let chunkRows: Int
    /// How long a partner snapshot may be shown after the relay received it (s).
    let partnerShownFor: Double
    let logger: Logger
    let clock: WallClock
    /// Each open stream's outgoing queue.
    var queues: [PhoneConnection: AsyncStream<Wearbridge_Link_V1_PhoneMessage>.Continuation] = [:]

    init(
        core: PhoneCore,
        inbox: Inbox,
        races: (any RaceLink)?,
        counters: PhoneCounters,
        chunkRows: Int,
        partnerShownFor: Double = 10,
        logger: Logger,
        clock: WallClock
    ) {
        self.core = core
        self.inbox = inbox
        self.races = races
        self.counters = counters
        self.chunkRows = chunkRows
        self.partnerShownFor = partnerShownFor
        self.logger = logger
        self.clock = clock
    }

    /// What one input brought that the core's actions refer to, and the answer to whoever asked.
    struct Hand {
        var envelope: Wearbridge_Link_V1_Envelope?
        var chunk: Wearbridge_Link_V1_BackfillChunk?
        var partner: [Wearbridge_Link_V1_PartnerSnapshot] = []
        var answer: PhoneLoopAnswer = .carryOn
    }

    /// Until the inputs end (or the task is cancelled); then every stream is ended.
    mutating func run(_ inputs: PhoneInputs) async {
        for await item in inputs.stream {
            if case .tick = item.input { inputs.tookTick() }
            let answer = await take(item.input)
            if let token = item.token { inputs.resolve(token, answer) }
        }
        inputs.close()
        for queue in queues.values { queue.finish() }
        queues = [:]
    }

    private mutating func take(_ input: PhoneLoopInput) async -> PhoneLoopAnswer {
        let now = clock.now()
        var hand = Hand()
        let event: PhoneInput
        switch input {
        case .tick:
            event = .tick(partnerVersion: races?.partnerChanges)
        case .hello(let connection, let hello):
            hand.answer = .end(error: nil)
            event = .hello(
                connection,
                name: hello.wearableName,
                epoch: hello.outboxEpoch,
                head: Int(clamping: hello.outboxHead)
            )
        case .closed(let connection):
            queues.removeValue(forKey: connection)?.finish()
            event = .closed(connection)
        case .message(let connection, let message):
            switch message.body {
            case .envelope(let envelope):
                hand.envelope = envelope
                event = .envelope(connection, Self.facts(envelope))
            case .busy(let busy): event = .busy(connection, command: busy.commandID, message: busy.message)
            case .rejected(let reply): event = .rejected(connection, command: reply.commandID, message: reply.message)
            case .backfill(let chunk):
                hand.chunk = chunk
                event = .chunk(connection)
            case .hello: event = .ignored(connection, .secondHello)
            case nil: event = .ignored(connection, .unknownKind)
            }
        }
        await feed(event, now, &hand)
        return hand.answer
    }

    /// The facts of an envelope the core judges it by.
    static func facts(_ envelope: Wearbridge_Link_V1_Envelope) -> EnvelopeFacts {
        let messageClass = LinkMessage.Class(wire: envelope.class)
        var answers: String?
        if case .commandReply(let reply) = envelope.payload.kind { answers = reply.commandID }
        return EnvelopeFacts(
            seq: Int(clamping: envelope.seq),
            messageClass: messageClass,
            impossibility: messageClass == .snapshot ? envelope.payload.snapshot.impossibility : nil,
            kind: envelope.payload.kind == nil ? nil : envelope.payload.messageKind,
            answers: answers
        )
    }

    mutating func feed(_ event: PhoneInput, _ now: Double, _ hand: inout Hand) async {
        for action in core.handle(event, now: now) {
            do {
                try await perform(action, now, &hand)
            } catch {
                // The inbox failed: the stream ends without an acknowledgement, and the wearable
                // sends again on its next connection.
                logger.notice("wearable stream ended", metadata: ["error": "\(error)"])
                hand.answer = .end(error: "\(error)")
                return
            }
        }
    }

    private mutating func perform(_ action: PhoneAction, _ now: Double, _ hand: inout Hand) async throws {
        switch action {
        case .refuse(let connection, let refusal):
            logger.warning("refused a hello without a valid outbox epoch", metadata: ["wearable": "\(connection)"])
            hand.answer = .refused(refusal)
        case .readMark(let connection, let epoch):
            let mark = try inbox.link.mark(wearable: connection.wearable, epoch: epoch)
            await feed(.mark(connection, mark), now, &hand)
        case .replace(let older):
            queues.removeValue(forKey: older)?.finish()
        case .opened(let connection, let name, let stream):
            try await opened(connection, name: name, stream: stream, now, &hand)
        case .welcome(let connection, let through, let snapshot):
            write(
                .with {
                    $0.welcome = .with {
                        $0.highWaterMark = UInt64(through)
                        $0.snapshotSeq = UInt64(snapshot)
                    }
                },
                to: connection
            )
        case .handRacesAgain(let wearable):
            do {
                try await races?.reconnected(wearable: wearable, now: now)
            } catch {
                logger.warning(
                    "cannot hand a race's countdown again",
                    metadata: ["wearable": "\(wearable)", "error": "\(error)"]
                )
            }
        case .seen(let wearable):
            try await inbox.link.seen(wearable: wearable, at: now)
        case .commit(let connection, let seq, let unknownKind):
            try await commit(connection, seq: seq, unknownKind: unknownKind, now, &hand)
        case .dropped(let connection, let seq, let why):
            dropped(connection, seq: seq, why, hand.envelope)
        case .ack(let connection, let through, let snapshot):
            write(
                .with {
                    $0.ack = .with {
                        $0.throughSeq = UInt64(through)
                        $0.snapshotSeq = UInt64(snapshot)
                    }
                },
                to: connection
            )
        case .recordBusy(let command, let message):
            logger.notice("the wearable is busy", metadata: ["command": "\(command)", "message": "\(message)"])
            try await inbox.commands.busy(command, message: message)
        case .settle(let command, .notAnswered):
            do {
                try await settle(command, .notAnswered, now)
            } catch {
                logger.warning("cannot read or update the command queue", metadata: ["error": "\(error)"])
            }
        case .settle(let command, let settlement):
            try await settle(command, settlement, now)
        case .commitChunk(let connection):
            guard let chunk = hand.chunk else { return }
            try await commitChunk(chunk, connection, now, &hand)
        case .askBackfill(let connection):
            if !askBackfill(connection) { await feed(.backfillNotAsked(wearable: connection.wearable), now, &hand) }
        case .readCommands:
            let queued: [QueuedCommand]
            do {
                queued = try inbox.commands.pending()
            } catch {
                logger.warning("cannot read or update the command queue", metadata: ["error": "\(error)"])
                return
            }
            await feed(.queued(queued.map(Self.facts)), now, &hand)
        case .send(let command, let connection):
            await send(command, to: connection, now)
        case .readPartner(let connection):
            guard let races else { return }
            do {
                hand.partner = try races.partnerSnapshots(wearable: connection.wearable, shownFor: partnerShownFor)
            } catch {
                logger.warning(
                    "cannot read the partner's figures",
                    metadata: ["wearable": "\(connection.wearable)", "error": "\(error)"]
                )
                return
            }
            await feed(.partner(connection, hand.partner.map { .init(run: $0.run, seq: $0.seq) }), now, &hand)
        case .handPartner(let connection, let indices):
            for index in indices where hand.partner.indices.contains(index) {
                write(.with { $0.partnerSnapshot = hand.partner[index] }, to: connection)
            }
        case .ignored(let connection, .secondHello):
            logger.warning("ignored a second hello on one stream", metadata: ["wearable": "\(connection)"])
            counters.invalid.add(1, ordering: .relaxed)
        case .ignored(let connection, .unknownKind):
            logger.warning(
                "ignored a message of a kind this phone does not know (a newer wearable?)",
                metadata: ["wearable": "\(connection)"]
            )
            counters.unknown.add(1, ordering: .relaxed)
        case .disconnected(let wearable):
            try? await inbox.link.changed(wearable: wearable, connected: false, helloName: nil, epoch: nil, at: now)
        case .end:
            hand.answer = .end(error: nil)
        }
    }
}
