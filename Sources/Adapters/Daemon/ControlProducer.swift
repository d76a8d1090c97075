import Control
import Logging
import ServiceLifecycle
import SessionCore

/// The control socket into the engine: each request translated at the socket's edge, asked with a
/// reply token, answered when the engine says (after the commit, for a command).
///
/// Not cancelled at shutdown: the listener closes, and requests in flight still get their answer
/// (durable, or an error) from the draining engine.
struct ControlProducer: EngineProducer {
    let name = "control"
    let role = EngineProducerRole.requester
    let server: ControlServer
    let logger: Logger

    func run(into inbox: EngineInbox) async {
        let server = self.server
        // Closed, not cancelled, at shutdown: requests in flight are still answered.
        await withGracefulShutdownHandler {
            await serve(into: inbox)
        } onGracefulShutdown: {
            server.shutdown()
        }
    }

    private func serve(into inbox: EngineInbox) async {
        await server.serve { request in
            switch request.translated {
            case .refuse(let refusal):
                return refusal
            case .ask(let input):
                let answer = await inbox.ask(input)
                guard let answer else {
                    return .failure("wearbridge is shutting down: not applied", id: request.id)
                }
                if case .command(let reply) = answer {
                    logger.info(
                        "command",
                        metadata: [
                            "command": "\(reply.command.rawValue)", "id": "\(reply.commandID)",
                            "accepted": "\(reply.accepted)", "message": "\(reply.message)",
                        ]
                    )
                } else if case .failed(let failure) = answer {
                    logger.warning(
                        "command failed",
                        metadata: [
                            "command": "\(failure.command.rawValue)", "id": "\(failure.commandID)",
                            "reason": "\(failure.reason.rawValue)", "message": "\(failure.message)",
                        ]
                    )
                }
                return ControlReply(answer)
            }
        }
    }
}
