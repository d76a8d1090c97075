import Foundation
import Logging
import PhoneLinkContract
import PhoneLinkDelivery
import PhoneLinkWire
import ProcessClock
import SessionCore
import SwiftProtobuf
import Synchronization

/// Sends the commands the CLI queued: at once when the wearable is connected, again every
/// `retryEvery` with the same id until answered, given up at the deadline ("not answered").
final class CommandSender: Sendable {
    let inbox: Inbox
    let connections: Connections
    let logger: Logger
    let clock: WallClock
    private let pending: Mutex<PendingCommands>
    private let wearableOf = Mutex<[String: String]>([:])

    init(inbox: Inbox, connections: Connections, retryEvery: Double, logger: Logger, clock: WallClock) {
        self.inbox = inbox
        self.clock = clock
        self.connections = connections
        self.logger = logger
        pending = Mutex(PendingCommands(retryEvery: retryEvery))
    }

    /// A (re)connected wearable gets everything still waiting at once.
    func reconnected(_ wearable: String, at now: Double) {
        pending.withLock { $0.reconnected(now) }
    }

    func answered(_ id: String) {
        _ = pending.withLock { $0.answered(id) }
    }

    /// Until cancelled: picks up queued commands, sends what is due, gives up what is late.
    func run() async {
        while !Task.isCancelled {
            do {
                try await step(clock.now())
            } catch {
                logger.warning("cannot read or update the command queue", metadata: ["error": "\(error)"])
            }
            try? await Task.sleep(for: .milliseconds(250))
        }
    }

    /// One round at `now`: take up newly queued commands, settle the late ones, send what is due.
    func step(_ now: Double) async throws {
        for queued in try inbox.commands.pending() {
            let known = pending.withLock { $0.waiting[queued.id] != nil }
            if !known {
                wearableOf.withLock { $0[queued.id] = queued.wearable }
                pending.withLock {
                    $0.add(
                        .init(
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
        }
        for late in pending.withLock({ $0.expired(now) }) {
            logger.warning("a command was not answered by its deadline", metadata: ["command": "\(late.id)"])
            try await inbox.commands.settle(
                CommandAnswer(id: late.id, outcome: .notAnswered, message: "not answered", session: nil),
                at: now
            )
        }
        let due = pending.withLock { $0.due(now) }
        for command in due {
            guard let wearable = wearableOf.withLock({ $0[command.id] }), connections.isConnected(wearable) else {
                continue
            }
            var wire = Wearbridge_Link_V1_Command(
                id: command.id,
                kind: command.kind,
                activity: command.activity,
                issuedAt: command.issuedAt,
                validFor: command.validFor,
                now: now
            )
            if let body = command.body { try wire.merge(serializedBytes: body) }
            let message = Wearbridge_Link_V1_PhoneMessage.with { $0.command = wire }
            if connections.send(message, to: wearable) {
                try await inbox.commands.sent(command.id)
                logger.info(
                    "sent a command",
                    metadata: ["command": "\(command.id)", "kind": "\(command.kind.rawValue)"]
                )
            }
        }
    }
}
