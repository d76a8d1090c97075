import Logging
import PhoneCore
import PhoneLinkContract
import PhoneLinkDelivery
import PhoneLinkMessages
import PhoneLinkWire
import ProcessClock
import SwiftProtobuf

/// How `PhoneLoop` carries out the actions that touch the inbox and the streams.
extension PhoneLoop {
    func write(_ message: Wearbridge_Link_V1_PhoneMessage, to connection: PhoneConnection) {
        queues[connection]?.yield(message)
    }

    mutating func opened(
        _ connection: PhoneConnection,
        name: String,
        stream: PhoneStream,
        _ now: Double,
        _ hand: inout Hand
    ) async throws {
        if stream.behindMark {
            logger.warning(
                "the wearable's outbox is behind this inbox's mark (its log was restored?)",
                metadata: ["wearable": "\(connection)", "mark": "\(stream.mark.mark)", "head": "\(stream.mark.head)"]
            )
        }
        try await inbox.link.changed(
            wearable: connection.wearable,
            connected: true,
            helloName: name,
            epoch: stream.epoch,
            head: stream.mark.head,
            at: now
        )
        logger.info(
            "wearable connected",
            metadata: [
                "wearable": "\(connection)", "hello.name": "\(name)", "epoch": "\(stream.epoch)",
                "mark": "\(stream.mark.mark)", "head": "\(stream.mark.head)",
            ]
        )
        let (outgoing, queue) = AsyncStream.makeStream(of: Wearbridge_Link_V1_PhoneMessage.self)
        queues[connection] = queue
        hand.answer = .opened(outgoing)
    }

    mutating func commit(
        _ connection: PhoneConnection,
        seq: Int,
        unknownKind: Bool,
        _ now: Double,
        _ hand: inout Hand
    ) async throws {
        guard let envelope = hand.envelope, let messageClass = LinkMessage.Class(wire: envelope.class) else { return }
        if unknownKind {
            counters.unknown.add(1, ordering: .relaxed)
            logger.warning(
                "stored a message of a kind this phone does not know (a newer wearable?)",
                metadata: ["wearable": "\(connection)", "seq": "\(seq)", "class": "\(envelope.class)"]
            )
        }
        var answer: CommandAnswer?
        if case .commandReply(let reply) = envelope.payload.kind { answer = CommandAnswer(reply: reply) }
        let stored = try await inbox.link.commit(
            InboxMessage(
                wearable: connection.wearable,
                epoch: core.epoch(of: connection) ?? "",
                seq: seq,
                messageClass: messageClass,
                kind: envelope.payload.messageKind,
                session: envelope.payload.sessionText,
                payload: try envelope.payload.serializedBytes(),
                createdAtMs: envelope.createdAtMs,
                receivedAt: now,
                answer: answer
            )
        )
        if stored { counters.stored.add(1, ordering: .relaxed) }
        await feed(.committed(connection, stored: stored), now, &hand)
    }

    func dropped(
        _ connection: PhoneConnection,
        seq: Int,
        _ why: PhoneAction.Dropped,
        _ envelope: Wearbridge_Link_V1_Envelope?
    ) {
        switch why {
        case .duplicate:
            counters.duplicates.add(1, ordering: .relaxed)
            logger.debug(
                "dropped a resend at or below the mark",
                metadata: ["wearable": "\(connection)", "seq": "\(seq)"]
            )
        case .staleSnapshot:
            break
        case .invalid(let reason):
            counters.invalid.add(1, ordering: .relaxed)
            logger.warning(
                "ignored an envelope: \(reason)",
                metadata: ["wearable": "\(connection)", "seq": "\(seq)", "class": "\(envelope?.class ?? .unspecified)"]
            )
        case .impossible(let problem):
            counters.invalid.add(1, ordering: .relaxed)
            logger.warning(
                "ignored a snapshot with impossible values",
                metadata: ["wearable": "\(connection)", "seq": "\(seq)", "problem": "\(problem)"]
            )
        }
    }

    func settle(_ command: String, _ settlement: PhoneAction.Settlement, _ now: Double) async throws {
        let answer: CommandAnswer
        switch settlement {
        case .rejected(let message):
            answer = CommandAnswer(id: command, outcome: .fail(.invalid), message: message, session: nil)
        case .notAnswered:
            logger.warning("a command was not answered by its deadline", metadata: ["command": "\(command)"])
            answer = CommandAnswer(id: command, outcome: .notAnswered, message: "not answered", session: nil)
        }
        try await inbox.commands.settle(answer, at: now)
    }

    mutating func commitChunk(
        _ chunk: Wearbridge_Link_V1_BackfillChunk,
        _ connection: PhoneConnection,
        _ now: Double,
        _ hand: inout Hand
    ) async throws {
        let added = try await inbox.backfill.commit(chunk, wearable: connection.wearable)
        if chunk.done {
            // A running session followed for the dashboard completes every round: debug, not info.
            let ended = (try? inbox.link.sessionEnded(chunk.session)) ?? true
            logger.log(
                level: ended ? .info : .debug,
                "backfill complete",
                metadata: ["session": "\(chunk.session)", "unknown": "\(chunk.unknownSession)", "rows": "\(added)"]
            )
        }
        await feed(.chunkCommitted(connection, rows: chunk.rows.count, done: chunk.done), now, &hand)
    }

    /// Sends the request for the next chunk the backfill queue holds; false when none went.
    func askBackfill(_ connection: PhoneConnection) -> Bool {
        do {
            guard let (session, after) = try inbox.backfill.next(wearable: connection.wearable),
                let queue = queues[connection]
            else { return false }
            let request = Wearbridge_Link_V1_PhoneMessage.with {
                $0.backfillRequest = .with {
                    $0.session = session
                    $0.afterSeq = UInt64(after)
                    $0.maxRows = UInt32(chunkRows)
                }
            }
            if case .enqueued = queue.yield(request) { return true }
            return false
        } catch {
            logger.warning("cannot read the backfill queue", metadata: ["error": "\(error)"])
            return false
        }
    }

    func send(_ command: PendingCommands.Command, to connection: PhoneConnection, _ now: Double) async {
        do {
            var wire = Wearbridge_Link_V1_Command(
                id: command.id,
                kind: command.kind,
                activity: command.activity,
                issuedAt: command.issuedAt,
                validFor: command.validFor,
                now: now
            )
            if let body = command.body { try wire.merge(serializedBytes: body) }
            guard let queue = queues[connection], case .enqueued = queue.yield(.with { $0.command = wire }) else {
                return
            }
            try await inbox.commands.sent(command.id)
            logger.info("sent a command", metadata: ["command": "\(command.id)", "kind": "\(command.kind.rawValue)"])
        } catch {
            logger.warning("cannot read or update the command queue", metadata: ["error": "\(error)"])
        }
    }

    /// A queued command as the core takes it up.
    static func facts(_ queued: QueuedCommand) -> PhoneInput.QueuedFacts {
        PhoneInput.QueuedFacts(
            wearable: queued.wearable,
            command: .init(
                id: queued.id,
                kind: queued.kind,
                activity: queued.activity,
                issuedAt: queued.issuedAt,
                validFor: queued.validFor,
                deadline: queued.deadline,
                body: queued.body
            )
        )
    }
}
