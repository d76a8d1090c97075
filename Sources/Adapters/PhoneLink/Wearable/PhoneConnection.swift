import Engine
import Foundation
import GRPCCore
import GRPCNIOTransportHTTP2
import Logging
import PhoneLinkContract
import PhoneLinkDelivery
import PhoneLinkWire
import ProcessClock
import Reconnection
import SessionCore
import Store
import SwiftProtobuf
import Synchronization

/// One connection to the phone: hello, welcome, the outbox after the mark, acks, commands.
struct PhoneConnection {
    let client: PhoneLinkClient
    let shared: LinkShared
    let submit: @Sendable (PhoneCommand) async -> PhoneCommandOutcome
    /// A race partner's newest figures, for the engine.
    let partner: @Sendable (PartnerSnapshotReport) -> Void

    private var store: SessionLog { client.store }
    private var logger: Logger { client.logger }

    func run() async -> ReconnectLoop.Outcome {
        let welcomed = Flag()
        do {
            let epoch = try store.outboxEpoch()
            let head = try store.outboxHead()
            let transport = try client.transport()
            let (outgoing, send) = AsyncStream.makeStream(of: Wearbridge_Link_V1_WearableMessage.self)
            let (events, pump) = AsyncStream.makeStream(of: PumpEvent.self)
            let hello = Wearbridge_Link_V1_WearableMessage.with {
                $0.hello = .with {
                    $0.wearableName = client.settings.name
                    $0.outboxEpoch = epoch
                    $0.outboxHead = UInt64(head)
                    $0.protocolVersion = 1
                }
            }
            // An attempt that is not welcomed in time (a handshake or a stream stuck on a dead path)
            // is abandoned and made afresh: the link reconnects forever, never waits forever.
            try await withThrowingTaskGroup(of: Bool.self) { attempt in
                attempt.addTask {
                    try await withGRPCClient(transport: transport) { grpc in
                        let phone = Wearbridge_Link_V1_PhoneLink.Client(wrapping: grpc)
                        try await phone.connect { writer in
                            try await writer.write(hello)
                            for await message in outgoing { try await writer.write(message) }
                        } onResponse: { response in
                            shared.attach(pump)
                            defer {
                                shared.attach(nil)
                                shared.connection(false)
                                send.finish()
                            }
                            try await withThrowingTaskGroup(of: Void.self) { group in
                                group.addTask { try await runPump(events, head: head, send: send) }
                                group.addTask {
                                    let every = client.settings.heartbeatEvery
                                    while !Task.isCancelled {
                                        try await Task.sleep(for: .milliseconds(Int(every * 1000)))
                                        pump.yield(.heartbeat)
                                    }
                                }
                                group.addTask {
                                    for try await message in response.messages {
                                        shared.traffic()
                                        try await handle(message, pump: pump, send: send, welcomed: welcomed)
                                    }
                                    throw LinkViolation(description: "the phone closed the stream")
                                }
                                try await group.next()
                                group.cancelAll()
                            }
                        }
                    }
                    return true
                }
                attempt.addTask {
                    try await Task.sleep(for: .milliseconds(Int(client.settings.welcomeWithin * 1000)))
                    if !welcomed.value {
                        throw LinkViolation(description: "no welcome within \(client.settings.welcomeWithin) s")
                    }
                    return false
                }
                // The stream's end ends the attempt; a watchdog that saw the welcome just steps aside.
                for try await streamEnded in attempt where streamEnded {
                    attempt.cancelAll()
                    break
                }
            }
            return ReconnectLoop.Outcome(delivered: welcomed.value, reason: "the stream ended")
        } catch {
            return ReconnectLoop.Outcome(delivered: welcomed.value, reason: "\(error)")
        }
    }

    private func handle(
        _ message: Wearbridge_Link_V1_PhoneMessage,
        pump: AsyncStream<PumpEvent>.Continuation,
        send: AsyncStream<Wearbridge_Link_V1_WearableMessage>.Continuation,
        welcomed: Flag
    ) async throws {
        switch message.body {
        case .welcome(let welcome):
            welcomed.set()
            shared.connection(true)
            logger.info(
                "phone link up",
                metadata: ["phone.mark": "\(welcome.highWaterMark)", "phone.snapshot": "\(welcome.snapshotSeq)"]
            )
            pump.yield(
                .welcome(mark: Int(clamping: welcome.highWaterMark), snapshot: Int(clamping: welcome.snapshotSeq))
            )
        case .ack(let ack):
            pump.yield(.ack(through: Int(clamping: ack.throughSeq), snapshot: Int(clamping: ack.snapshotSeq)))
        case .command(let command):
            guard welcomed.value else { throw LinkViolation(description: "a command before the welcome") }
            let request: PhoneCommand
            do {
                request = try PhoneCommand(wire: command)
            } catch {
                logger.warning(
                    "refused an unreadable command",
                    metadata: ["id": "\(command.commandID)", "reason": "\(error.reason)"]
                )
                send.yield(
                    .with {
                        $0.rejected = .with {
                            $0.commandID = command.commandID
                            $0.kind = command.kind
                            $0.ok = false
                            $0.reason = .invalid
                            $0.message = error.reason
                        }
                    }
                )
                return
            }
            logger.info(
                "command from the phone",
                metadata: ["id": "\(request.id)", "command": "\(request.kind)", "age_ms": "\(command.ageMs)"]
            )
            if case .busy(let reason) = await submit(request) {
                send.yield(
                    .with {
                        $0.busy = .with {
                            $0.commandID = command.commandID
                            $0.message = reason
                        }
                    }
                )
            }
        case .partnerSnapshot(let snapshot):
            guard welcomed.value else { throw LinkViolation(description: "a partner snapshot before the welcome") }
            guard !snapshot.run.isEmpty, snapshot.seq > 0 else {
                logger.warning(
                    "ignored a partner snapshot without its run or seq",
                    metadata: ["run": "\(snapshot.run)"]
                )
                return
            }
            partner(
                PartnerSnapshotReport(
                    run: snapshot.run,
                    sequence: snapshot.seq,
                    distance: Double(snapshot.distanceDm) / 10,
                    gpsTime: snapshot.gpsTimeMs > 0 ? Double(snapshot.gpsTimeMs) / 1000 : nil,
                    elapsed: Double(snapshot.elapsedDs) / 10,
                    paused: snapshot.paused,
                    expiresAt: snapshot.expiresAtMs > 0 ? Double(snapshot.expiresAtMs) / 1000 : nil,
                    courseDistance: snapshot.hasCourseDm ? Double(snapshot.courseDm) / 10 : nil
                )
            )
        case .backfillRequest(let request):
            guard welcomed.value else { throw LinkViolation(description: "a backfill request before the welcome") }
            send.yield(.with { $0.backfill = backfillChunk(request) })
        case nil:
            // A message from a newer phone: ignored, said once per message.
            logger.warning(
                "ignored a message of a kind this wearable does not know",
                metadata: ["bytes": "\((try? message.serializedBytes() as [UInt8])?.count ?? 0)"]
            )
        }
    }

    /// One chunk of a session's record after the phone's cursor (bounded: the phone asks again).
    private func backfillChunk(_ request: Wearbridge_Link_V1_BackfillRequest) -> Wearbridge_Link_V1_BackfillChunk {
        let limit = request.maxRows == 0 ? 500 : Int(min(request.maxRows, 5000))
        var chunk = Wearbridge_Link_V1_BackfillChunk()
        chunk.session = request.session
        chunk.afterSeq = request.afterSeq
        do {
            guard
                let answer = try store.backfillChunk(
                    session: request.session,
                    after: Int(clamping: request.afterSeq),
                    limit: limit
                )
            else {
                logger.warning(
                    "backfill of a session this wearable does not have",
                    metadata: ["session": "\(request.session)"]
                )
                chunk.unknownSession = true
                chunk.done = true
                return chunk
            }
            chunk = answer
            chunk.afterSeq = request.afterSeq
        } catch {
            // Not answered: the phone asks again on its next round.
            logger.warning("cannot read a session for backfill", metadata: ["error": "\(error)"])
        }
        return chunk
    }

    /// The only owner of the delivery window: every event of this connection goes through it.
    private func runPump(
        _ events: AsyncStream<PumpEvent>,
        head: Int,
        send: AsyncStream<Wearbridge_Link_V1_WearableMessage>.Continuation
    ) async throws {
        var pump = OutboxPump(
            store: store,
            head: head,
            heartbeatEvery: client.settings.heartbeatEvery,
            logger: logger,
            now: MonotonicClock.now()
        ) { send.yield($0) }
        for await event in events {
            try await pump.handle(event, now: MonotonicClock.now(), wallClock: MonotonicClock.system())
        }
    }
}

/// A flag set once by one task and read by another.
final class Flag: Sendable {
    private let storage = Synchronization.Atomic<Bool>(false)
    var value: Bool { storage.load(ordering: .acquiring) }
    func set() { storage.store(true, ordering: .releasing) }
}
