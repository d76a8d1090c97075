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
import SwiftProtobuf
import X509

/// The phone's side of `Connect`: who the wearable is (by its pinned certificate), its marks
/// in a welcome, every envelope committed before it is acknowledged, resends dropped.
struct PhoneLinkService: Wearbridge_Link_V1_PhoneLink.SimpleServiceProtocol {
    let inbox: Inbox
    let wearables: [Fingerprint: String]
    let connections: Connections
    let counters: PhoneCounters
    let commands: CommandSender
    let backfill: BackfillPuller
    let logger: Logger

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
        guard !hello.outboxEpoch.isEmpty, hello.outboxEpoch.utf8.count <= 64 else {
            logger.warning("refused a hello without a valid outbox epoch")
            throw RPCError(code: .invalidArgument, message: "hello.outbox_epoch is required (at most 64 bytes)")
        }
        let epoch = hello.outboxEpoch
        var mark = try inbox.mark(wearable: wearable, epoch: epoch)
        mark.head = Int(clamping: hello.outboxHead)
        if mark.mark > mark.head {
            logger.warning(
                "the wearable's outbox is behind this inbox's mark (its log was restored?)",
                metadata: ["mark": "\(mark.mark)", "head": "\(mark.head)"]
            )
        }
        let now = Date().timeIntervalSince1970
        try await inbox.linkChanged(
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
                "hello.name": "\(hello.wearableName)", "epoch": "\(epoch)", "mark": "\(mark.mark)",
                "head": "\(hello.outboxHead)",
            ]
        )
        let (outgoing, queue) = AsyncStream.makeStream(of: Wearbridge_Link_V1_PhoneMessage.self)
        queue.yield(
            .with {
                $0.welcome = .with {
                    $0.highWaterMark = UInt64(mark.mark)
                    $0.snapshotSeq = UInt64(mark.snapshot)
                }
            }
        )
        let id = connections.attach(wearable, queue)
        commands.reconnected(wearable)
        do {
            try await inbox.reissueRaceOrders(wearable: wearable, now: Date().timeIntervalSince1970)
        } catch {
            logger.warning("cannot hand a race's countdown again", metadata: ["error": "\(error)"])
        }
        backfill.kick(wearable)
        defer {
            connections.detach(wearable, id: id)
            backfill.disconnected(wearable)
            queue.finish()
        }
        let forwarder = PartnerForwarder(inbox: inbox, wearable: wearable, queue: queue, logger: logger)
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await forwarder.run() }
            group.addTask {
                // A failed write means the stream is gone: the reading loop below ends with it.
                for await message in outgoing {
                    do { try await response.write(message) } catch { return }
                }
            }
            var lastSeen = 0.0
            do {
                while let message = try await messages.next() {
                    let now = Date().timeIntervalSince1970
                    if now - lastSeen >= 1 {
                        lastSeen = now
                        try await inbox.seen(wearable: wearable, at: now)
                    }
                    try await handle(
                        message,
                        wearable: wearable,
                        epoch: epoch,
                        mark: &mark,
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
        try? await inbox.linkChanged(
            wearable: wearable,
            connected: false,
            helloName: nil,
            epoch: nil,
            at: Date().timeIntervalSince1970
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
        epoch: String,
        mark: inout InboxMark,
        queue: Connections.Outgoing,
        logger: Logger
    ) async throws {
        switch message.body {
        case .envelope(let envelope):
            try await deliver(envelope, wearable: wearable, epoch: epoch, mark: &mark, logger: logger)
            queue.yield(
                .with {
                    $0.ack = .with {
                        $0.throughSeq = UInt64(mark.mark)
                        $0.snapshotSeq = UInt64(mark.snapshot)
                    }
                }
            )
        case .busy(let busy):
            logger.notice(
                "the wearable is busy",
                metadata: ["command": "\(busy.commandID)", "message": "\(busy.message)"]
            )
            try await inbox.busy(busy.commandID, message: busy.message)
        case .rejected(let reply):
            let answer = CommandAnswer(
                id: reply.commandID,
                outcome: .fail(.invalid),
                message: reply.message,
                session: nil
            )
            commands.answered(reply.commandID)
            try await inbox.settle(answer, at: Date().timeIntervalSince1970)
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
        epoch: String,
        mark: inout InboxMark,
        logger: Logger
    ) async throws {
        let seq = Int(clamping: envelope.seq)
        guard seq > 0, let messageClass = LinkMessage.Class(wire: envelope.class) else {
            counters.invalid.add(1, ordering: .relaxed)
            logger.warning(
                "ignored an envelope without a seq or class",
                metadata: ["seq": "\(seq)", "class": "\(envelope.class)"]
            )
            return
        }
        let isSnapshot = messageClass == .snapshot
        switch mark.judge(seq: seq, isSnapshot: isSnapshot) {
        case .duplicate:
            counters.duplicates.add(1, ordering: .relaxed)
            logger.debug("dropped a resend at or below the mark", metadata: ["seq": "\(seq)", "mark": "\(mark.mark)"])
            return
        case .staleSnapshot:
            return
        case .beyondHead(let head):
            counters.invalid.add(1, ordering: .relaxed)
            logger.warning(
                "ignored an envelope beyond the wearable's head",
                metadata: ["seq": "\(seq)", "head": "\(head)"]
            )
            return
        case .store:
            break
        }
        if isSnapshot, let problem = envelope.payload.snapshot.impossibility {
            counters.invalid.add(1, ordering: .relaxed)
            logger.warning(
                "ignored a snapshot with impossible values",
                metadata: ["seq": "\(seq)", "problem": "\(problem)"]
            )
            mark.committed(seq: seq, isSnapshot: true)
            return
        }
        if envelope.payload.kind == nil {
            counters.unknown.add(1, ordering: .relaxed)
            logger.warning(
                "stored a message of a kind this phone does not know (a newer wearable?)",
                metadata: ["seq": "\(seq)", "class": "\(envelope.class)"]
            )
        }
        var answer: CommandAnswer?
        if case .commandReply(let reply) = envelope.payload.kind {
            answer = CommandAnswer(reply: reply)
        }
        let stored = try await inbox.commit(
            InboxMessage(
                wearable: wearable,
                epoch: epoch,
                seq: seq,
                messageClass: messageClass,
                kind: envelope.payload.messageKind,
                session: envelope.payload.sessionText,
                payload: try envelope.payload.serializedBytes(),
                createdAtMs: envelope.createdAtMs,
                receivedAt: Date().timeIntervalSince1970,
                answer: answer
            )
        )
        if stored { counters.stored.add(1, ordering: .relaxed) }
        if stored, envelope.payload.messageKind == .sessionEnded { backfill.kick(wearable) }
        mark.committed(seq: seq, isSnapshot: isSnapshot)
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
