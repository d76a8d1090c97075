import Logging
import SessionCore
import Store
import TrackCore
import WearableLinkClient

/// The phone link into the engine: the phone's commands (checked here, at the edge) and the
/// link's health; its replies travel back through the outbox, written with their command's row.
/// A source: cancelled at shutdown (the phone retries what was not answered).
struct PhoneLinkProducer: EngineProducer {
    let name = "phone"
    let role = EngineProducerRole.source
    let client: PhoneLinkClient
    let outboxGrew: AsyncStream<Void>
    let logger: Logger

    func run(into inbox: EngineInbox) async {
        await client.run(outboxGrew: outboxGrew) { command in
            await submit(command, inbox)
        } report: { report in
            inbox.send(.link(report))
        }
    }

    private func submit(_ command: PhoneCommand, _ inbox: EngineInbox) async -> PhoneCommandOutcome {
        guard !command.id.isEmpty, command.id.utf8.count <= 128 else {
            return .invalid("a command needs an id (a UUID) of at most 128 bytes")
        }
        guard let kind = SessionCommand(rawValue: command.command) else {
            return .invalid("unknown command")
        }
        var activity: Activity?
        if let name = command.activity {
            guard let known = Activity(rawValue: name) else { return .invalid(Activity.refusal(forUnknown: name)) }
            activity = known
        }
        let expiresAt = command.validityLeft.map { Instant.now().monotonic + $0 }
        let answer = await inbox.ask { token in
            .command(
                CommandRequest(
                    kind,
                    id: command.id,
                    activity: activity,
                    token: token,
                    origin: .phone(expiresAt: expiresAt)
                )
            )
        }
        switch answer {
        case .command(let reply):
            logger.info(
                "phone command",
                metadata: [
                    "command": "\(reply.command.rawValue)", "id": "\(reply.commandID)", "accepted": "\(reply.accepted)",
                    "message": "\(reply.message)",
                ]
            )
            return .queued
        case .failed(let failure):
            return .busy(failure.message)
        case .status, nil:
            return .busy("wearbridge is shutting down: not applied")
        }
    }
}
