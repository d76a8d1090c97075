import SessionCore

extension SessionEngine {
    mutating func storage(_ report: StoreReport, _ now: Instant) {
        switch report {
        case .committed(let id):
            let (waiters, recovered) = queue.committed(id, now: now.monotonic)
            for waiter in waiters { actions.append(.reply(waiter.token, .command(waiter.reply))) }
            guard let recovered else { return }
            controller.storageRecovered(at: now.monotonic)
            let event = SessionEvent.storageRecovered(after: recovered.after, dropped: recovered.dropped)
            controller.event(event, receivedAt: now.monotonic, into: &output)
            actions.append(.storageHealth(nil))
        case .failed(let id, let failure):
            let (waiters, began) = queue.failed(id, failure, now: now.monotonic)
            // The figures of the failed batch are not on disk either: the next batch carries them.
            lastLive = nil
            for waiter in waiters {
                let reply = waiter.reply
                fail(
                    waiter.token,
                    reply.commandID,
                    reply.command,
                    .notDurable,
                    "\(reply.message) here, but not on disk (\(failure)); it is kept and written when storage "
                        + "recovers: ask again with the same id"
                )
            }
            guard began else { return }
            controller.event(.storageFailed(failure), receivedAt: now.monotonic, into: &output)
            actions.append(.storageHealth(failure))
        case .lookedUp(let id, let result):
            lookedUp(id, result, now)
        case .closed:
            phase = .finished
            for waiter in queue.abandonWaiters() {
                let reply = waiter.reply
                fail(
                    waiter.token,
                    reply.commandID,
                    reply.command,
                    .shuttingDown,
                    "\(reply.message) here, but wearbridge stopped before it was on disk"
                )
            }
            for (id, waiting) in lookups {
                for pending in waiting {
                    fail(
                        pending.request.token,
                        id,
                        pending.request.command,
                        .shuttingDown,
                        "wearbridge stopped: not applied"
                    )
                }
            }
            lookups = [:]
            actions.append(.finished(unwritten: queue.pendingRows))
        }
    }
}
