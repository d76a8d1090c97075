import SessionCore

extension SessionEngine {
    /// A command: answered from the ledger (once durable), applied once the log has said the id
    /// is new, or refused while storage is failing or the daemon stops.
    mutating func command(_ request: CommandRequest, _ now: Instant) {
        guard phase == .running else {
            fail(request.token, request.id, request.command, .shuttingDown, "wearbridge is shutting down: not applied")
            return
        }
        if let known = controller.reply(for: request.id) {
            if queue.isUndurable(request.id) {
                queue.wait(WriteQueue.Waiter(token: request.token, reply: known))
            } else if request.isFromPhone {
                // A repeat from the phone: its first answer again, through the outbox like the first.
                replyToPhone(known, request, now)
                absorbOutput(at: now)
                queue.wait(WriteQueue.Waiter(token: request.token, reply: known))
            } else {
                actions.append(.reply(request.token, .command(known)))
            }
            return
        }
        let pending = PendingCommand(request: request, receivedAt: now.monotonic, systemTime: now.system)
        if lookups[request.id] != nil {
            lookups[request.id]?.append(pending)
            return
        }
        if let (reason, message) = refusal(now) {
            fail(request.token, request.id, request.command, reason, message)
            return
        }
        lookups[request.id] = [pending]
        actions.append(.persist(.lookUp(commandID: request.id)))
    }

    /// The writer's answer on an id this process had not seen.
    mutating func lookedUp(_ id: String, _ result: Result<CommandReply?, StorageFailure>, _ now: Instant) {
        guard let waiting = lookups.removeValue(forKey: id), let first = waiting.first else { return }
        switch result {
        case .failure(let failure):
            for pending in waiting {
                fail(
                    pending.request.token,
                    id,
                    pending.request.command,
                    .lookupFailed,
                    "cannot tell whether this id was already applied (\(failure)); not applied"
                )
            }
        case .success(let stored?):
            controller.remember(stored)
            if waiting.contains(where: { $0.request.isFromPhone }) {
                replyToPhone(stored, first.request.isFromPhone ? first.request : waiting[0].request, now)
                absorbOutput(at: now)
            }
            for pending in waiting { actions.append(.reply(pending.request.token, .command(stored))) }
        case .success(nil):
            if let (reason, message) = refusal(now) {
                for pending in waiting { fail(pending.request.token, id, pending.request.command, reason, message) }
                return
            }
            let request = first.request
            let reply: CommandReply
            if case .phone(let expiresAt?) = request.origin, now.monotonic > expiresAt {
                let late = Int((now.monotonic - expiresAt).rounded())
                reply = controller.refuse(
                    request.command,
                    id: id,
                    code: .expired,
                    message: "not applied: it reached the wearable \(late) s after its validity ended",
                    receivedAt: first.receivedAt,
                    into: &output
                )
            } else if !request.command.isSessionCommand {
                // A race's or the footpod's: answered like any command (durable, once per id),
                // never by the lifecycle.
                let (refusal, message) =
                    switch request.command {
                    case .calibrate: calibrationAnswer(request, now)
                    case .course: courseAnswer(request)
                    case .removeCourse: courseRemoval(request)
                    default: raceAnswer(request, now)
                    }
                reply = controller.answer(
                    request.command,
                    id: id,
                    refusal: refusal,
                    message: message,
                    receivedAt: first.receivedAt,
                    into: &output
                )
            } else if request.command == .start, let name = request.course, courses.course(named: name) == nil {
                reply = controller.answer(
                    .start,
                    id: id,
                    refusal: .invalid,
                    message: "no course named \"\(name)\" is kept here (send it first: wearbridge-phone course send)",
                    receivedAt: first.receivedAt,
                    into: &output
                )
            } else {
                reply = controller.handle(
                    request.command,
                    id: id,
                    activity: request.activity,
                    indoor: request.indoor,
                    carriage: request.carriage,
                    receivedAt: first.receivedAt,
                    systemTime: first.systemTime,
                    into: &output
                )
            }
            if request.command == .start, reply.accepted, let name = request.course { follow(course: name, now) }
            if let phone = waiting.first(where: { $0.request.isFromPhone }) { replyToPhone(reply, phone.request, now) }
            // The command's row must be in the queue before its waiters are attached to it.
            absorbOutput(at: now)
            for pending in waiting { queue.wait(WriteQueue.Waiter(token: pending.request.token, reply: reply)) }
        }
    }

    /// Why a command not applied yet cannot be applied now, if it cannot.
    func refusal(_ now: Instant) -> (CommandFailure.Reason, String)? {
        if phase != .running { return (.shuttingDown, "wearbridge is shutting down: not applied") }
        guard case .failing(let since, let failure, _) = queue.health else { return nil }
        let failingFor = Int((now.monotonic - since).rounded())
        return (
            .storageFailing,
            "not applied: nothing can be recorded (\(failure), for \(failingFor) s); retry with the same id"
        )
    }

    mutating func fail(
        _ token: ReplyToken,
        _ id: String,
        _ command: SessionCommand,
        _ reason: CommandFailure.Reason,
        _ message: String
    ) {
        let failure = CommandFailure(commandID: id, command: command, reason: reason, message: message)
        actions.append(.reply(token, .failed(failure)))
    }
}
