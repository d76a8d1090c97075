import Engine
import Logging
import ProcessClock
import SessionCore
import Store

/// The data log's one writer, on a task of its own so that an fsync never holds up the engine:
/// each request in order (one transaction per batch), each outcome reported back to the engine,
/// which alone decides what a failure means (retry, replies, what to give up).
///
/// Failed commits are logged here at debug, and as a warning at most once a `warnEvery`; the
/// engine's loop logs when storage starts and stops failing.
struct StoreWriter: Sendable {
    let log: SessionLog
    let logger: Logger
    var warnEvery: Double = 60
    /// Told after each commit that added messages for the phone.
    var outboxGrew: AsyncStream<Void>.Continuation?

    func run(_ requests: AsyncStream<StoreRequest>, report: @Sendable (StoreReport) -> Void) async {
        var failures = 0
        var lastWarning = -Double.infinity
        for await request in requests {
            switch request {
            case .write(let batch):
                do {
                    try await log.write(batch)
                    failures = 0
                    report(.committed(batch: batch.id))
                    if let outboxGrew, batch.rows.contains(where: \.isOutbox) { outboxGrew.yield() }
                } catch {
                    failures += 1
                    let now = MonotonicClock.now()
                    let metadata: Logger.Metadata = [
                        "path": "\(log.path)", "error": "\(error)", "attempts": "\(failures)",
                        "rows": "\(batch.rows.count)",
                    ]
                    if failures > 1, now - lastWarning >= warnEvery {
                        lastWarning = now
                        logger.warning("the data log still cannot be written", metadata: metadata)
                    } else {
                        if failures == 1 { lastWarning = now }
                        logger.debug("commit failed", metadata: metadata)
                    }
                    report(.failed(batch: batch.id, error))
                }
            case .lookUp(let id):
                do {
                    report(.lookedUp(commandID: id, .success(try await log.reply(toCommand: id))))
                } catch {
                    report(.lookedUp(commandID: id, .failure(error)))
                }
            case .close:
                report(.closed)
                return
            }
        }
        report(.closed)
    }
}

extension LogRow {
    var isOutbox: Bool { if case .outbox = self { true } else { false } }
}
