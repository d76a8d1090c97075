import CertificateFingerprint
import Foundation
import GRPCCore
import GRPCNIOTransportHTTP2
import Identity
import Logging
import PhoneLinkContract
import PhoneLinkDelivery
import PhoneLinkMessages
import PhoneLinkWire
import ProcessClock
import SwiftProtobuf
import X509

/// The phone's side of `Connect`: who the wearable is (by its pinned certificate), its marks
/// in a welcome, every envelope committed before it is acknowledged, resends dropped.
struct PhoneLinkService: Wearbridge_Link_V1_PhoneLink.SimpleServiceProtocol {
    let inbox: Inbox
    let races: (any RaceLink)?
    let wearables: [Fingerprint: String]
    let connections: Connections
    let counters: PhoneCounters
    let commands: CommandSender
    let backfill: BackfillPuller
    let logger: Logger
    /// The phone's wall clock (Unix s), shared with the other shells of `wearbridge-phone run`.
    let clock: WallClock

    func connect(
        request: RPCAsyncSequence<Wearbridge_Link_V1_WearableMessage, any Error>,
        response: RPCWriter<Wearbridge_Link_V1_PhoneMessage>,
        context: ServerContext
    ) async throws {
        let wearable = try identify(context)
        var logger = self.logger
        logger[metadataKey: "wearable"] = "\(wearable)"
        var messages = request.makeAsyncIterator()
        guard let first = try await messages.next(), case .hello(let hello) = first.body else {
            logger.warning("refused a stream that did not begin with a hello")
            throw RPCError(code: .failedPrecondition, message: "the first message must be a hello")
        }
        guard PhoneStream.accepts(epoch: hello.outboxEpoch) else {
            logger.warning("refused a hello without a valid outbox epoch")
            throw RPCError(
                code: .invalidArgument,
                message: "hello.outbox_epoch is required (at most \(PhoneStream.maxEpochBytes) bytes)"
            )
        }
        var stream = try PhoneStream(
            epoch: hello.outboxEpoch,
            head: Int(clamping: hello.outboxHead),
            stored: inbox.link.mark(wearable: wearable, epoch: hello.outboxEpoch)
        )
        let epoch = stream.epoch
        if stream.behindMark {
            logger.warning(
                "the wearable's outbox is behind this inbox's mark (its log was restored?)",
                metadata: ["mark": "\(stream.mark.mark)", "head": "\(stream.mark.head)"]
            )
        }
        let now = clock.now()
        try await inbox.link.changed(
            wearable: wearable,
            connected: true,
            helloName: hello.wearableName,
            epoch: epoch,
            head: Int(clamping: hello.outboxHead),
            at: now
        )
        logger.info(
            "wearable connected",
            metadata: [
                "hello.name": "\(hello.wearableName)", "epoch": "\(epoch)", "mark": "\(stream.mark.mark)",
                "head": "\(hello.outboxHead)",
            ]
        )
        let (outgoing, queue) = AsyncStream.makeStream(of: Wearbridge_Link_V1_PhoneMessage.self)
        queue.yield(
            .with {
                $0.welcome = .with {
                    $0.highWaterMark = UInt64(stream.ack.through)
                    $0.snapshotSeq = UInt64(stream.ack.snapshot)
                }
            }
        )
        let id = connections.attach(wearable, queue)
        commands.reconnected(wearable, at: now)
        do {
            try await races?.reconnected(wearable: wearable, now: now)
        } catch {
            logger.warning("cannot hand a race's countdown again", metadata: ["error": "\(error)"])
        }
        backfill.kick(wearable)
        defer {
            connections.detach(wearable, id: id)
            backfill.disconnected(wearable)
            queue.finish()
        }
        let forwarder = races.map { PartnerForwarder(races: $0, wearable: wearable, queue: queue, logger: logger) }
        await withTaskGroup(of: Void.self) { group in
            if let forwarder { group.addTask { await forwarder.run() } }
            group.addTask {
                // A failed write means the stream is gone: the reading loop below ends with it.
                for await message in outgoing {
                    do { try await response.write(message) } catch { return }
                }
            }
            do {
                while let message = try await messages.next() {
                    let now = clock.now()
                    if stream.heard(at: now) { try await inbox.link.seen(wearable: wearable, at: now) }
                    try await handle(
                        message,
                        wearable: wearable,
                        stream: &stream,
                        now: now,
                        queue: queue,
                        logger: logger
                    )
                }
                logger.info("wearable closed the stream")
            } catch {
                logger.notice("wearable stream ended", metadata: ["error": "\(error)"])
            }
            queue.finish()
            group.cancelAll()
        }
        try? await inbox.link.changed(
            wearable: wearable,
            connected: false,
            helloName: nil,
            epoch: nil,
            at: clock.now()
        )
    }

    /// The wearable's name from its certificate (already pinned by the TLS handshake).
    private func identify(_ context: ServerContext) throws -> String {
        guard let posix = context.transportSpecific as? HTTP2ServerTransport.Posix.Context,
            let certificate = posix.peerCertificate,
            let der = try? certificate.serializeAsPEM().derBytes,
            let name = wearables[Fingerprint(der: der)]
        else {
            logger.warning(
                "refused a stream without a pinned client certificate",
                metadata: ["peer": "\(context.remotePeer)"]
            )
            throw RPCError(code: .unauthenticated, message: "no pinned client certificate")
        }
        return name
    }

    private func handle(
        _ message: Wearbridge_Link_V1_WearableMessage,
        wearable: String,
        stream: inout PhoneStream,
        now: Double,
        queue: Connections.Outgoing,
        logger: Logger
    ) async throws {
        switch message.body {
        case .envelope(let envelope):
            try await deliver(envelope, wearable: wearable, stream: &stream, now: now, logger: logger)
            queue.yield(
                .with {
                    $0.ack = .with {
                        $0.throughSeq = UInt64(stream.ack.through)
                        $0.snapshotSeq = UInt64(stream.ack.snapshot)
                    }
                }
            )
        case .busy(let busy):
            logger.notice(
                "the wearable is busy",
                metadata: ["command": "\(busy.commandID)", "message": "\(busy.message)"]
            )
            try await inbox.commands.busy(busy.commandID, message: busy.message)
        case .rejected(let reply):
            let answer = CommandAnswer(
                id: reply.commandID,
                outcome: .fail(.invalid),
                message: reply.message,
                session: nil
            )
            commands.answered(reply.commandID)
            try await inbox.commands.settle(answer, at: now)
        case .backfill(let chunk):
            try await backfill.received(chunk, from: wearable)
        case .hello:
            logger.warning("ignored a second hello on one stream")
            counters.invalid.add(1, ordering: .relaxed)
        case nil:
            logger.warning("ignored a message of a kind this phone does not know (a newer wearable?)")
            counters.unknown.add(1, ordering: .relaxed)
        }
    }

    private func deliver(
        _ envelope: Wearbridge_Link_V1_Envelope,
        wearable: String,
        stream: inout PhoneStream,
        now: Double,
        logger: Logger
    ) async throws {
        let seq = Int(clamping: envelope.seq)
        let messageClass = LinkMessage.Class(wire: envelope.class)
        let verdict = stream.envelope(
            seq: seq,
            isSnapshot: messageClass.map { $0 == .snapshot },
            impossibility: messageClass == .snapshot ? envelope.payload.snapshot.impossibility : nil,
            knownKind: envelope.payload.kind != nil
        )
        switch verdict {
        case .duplicate:
            counters.duplicates.add(1, ordering: .relaxed)
            logger.debug(
                "dropped a resend at or below the mark",
                metadata: ["seq": "\(seq)", "mark": "\(stream.mark.mark)"]
            )
            return
        case .staleSnapshot:
            return
        case .invalid(let why):
            counters.invalid.add(1, ordering: .relaxed)
            logger.warning("ignored an envelope: \(why)", metadata: ["seq": "\(seq)", "class": "\(envelope.class)"])
            return
        case .impossible(let problem):
            counters.invalid.add(1, ordering: .relaxed)
            logger.warning(
                "ignored a snapshot with impossible values",
                metadata: ["seq": "\(seq)", "problem": "\(problem)"]
            )
            return
        case .store(let unknownKind):
            if unknownKind {
                counters.unknown.add(1, ordering: .relaxed)
                logger.warning(
                    "stored a message of a kind this phone does not know (a newer wearable?)",
                    metadata: ["seq": "\(seq)", "class": "\(envelope.class)"]
                )
            }
        }
        guard let messageClass else { return }
        var answer: CommandAnswer?
        if case .commandReply(let reply) = envelope.payload.kind {
            answer = CommandAnswer(reply: reply)
        }
        let stored = try await inbox.link.commit(
            InboxMessage(
                wearable: wearable,
                epoch: stream.epoch,
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
        if stored, envelope.payload.messageKind == .sessionEnded { backfill.kick(wearable) }
        stream.committed(seq: seq, isSnapshot: messageClass == .snapshot)
        if let answer { commands.answered(answer.id) }
    }
}

extension Wearbridge_Link_V1_Snapshot {
    /// What makes a snapshot impossible, if anything: no runner covers 100 km in a minute.
    var impossibility: String? {
        if !session.isEmpty, session.count != 16 { return "session id of \(session.count) bytes, not 16" }
        if movingS > elapsedS { return "moving time \(movingS) s over elapsed \(elapsedS) s" }
        if elapsedS > 7 * 86_400 { return "elapsed \(elapsedS) s" }
        if heartRate > 250 { return "heart rate \(heartRate) bpm" }
        if zone > 10 { return "zone \(zone)" }
        if elapsedS > 0, Double(distanceDm) / 10 / Double(elapsedS) > 100 { return "faster than 100 m/s on average" }
        if elapsedS == 0, distanceDm > 10_000 { return "\(distanceDm / 10) m in no time" }
        if case .UNRECOGNIZED(let value) = state { return "unknown state \(value)" }
        return nil
    }
}
