import Engine
import Logging
import PhoneLinkWire
import SessionCore
import Store
import WearableLinkClient

/// The phone link into the engine: the phone's commands (read and checked by `PhoneCommand`) and the
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
            inbox.send(.phoneLink(report))
        } partner: { snapshot in
            inbox.send(.partnerSnapshot(snapshot))
        }
    }

    private func submit(_ command: PhoneCommand, _ inbox: EngineInbox) async -> PhoneCommandOutcome {
        let expiresAt = command.validityLeft.map { Instant.now().monotonic + $0 }
        let answer = await inbox.ask { token in
            .command(
                CommandRequest(
                    command.kind,
                    id: command.id,
                    activity: command.activity,
                    carriage: command.carriage,
                    token: token,
                    origin: .phone(expiresAt: expiresAt),
                    race: command.race,
                    coursePart: command.coursePart,
                    course: command.course
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
