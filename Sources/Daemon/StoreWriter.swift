import Logging
import Store

/// Commits batches on a task of its own, so that an fsync never holds up fixes or replies.
///
/// A failed commit (disk full, SD card hiccup) is logged and retried with what came since; nothing
/// is dropped. Acknowledgements (command replies) go out once their batch is durable.
struct StoreWriter: Sendable {
    struct Job: Sendable {
        var batch: LogBatch
        var acknowledgements: [@Sendable () -> Void]
    }

    let log: SessionLog
    let logger: Logger

    func run(_ jobs: AsyncStream<Job>) async {
        var failed: Job?
        for await job in jobs {
            var current = job
            if let previous = failed {
                current = Job(
                    batch: LogBatch(
                        actions: previous.batch.actions + job.batch.actions,
                        live: job.batch.live ?? previous.batch.live
                    ),
                    acknowledgements: previous.acknowledgements + job.acknowledgements
                )
            }
            failed = await commit(current) ? nil : current
        }
        if let failed {
            // Last chance at shutdown; replies go out either way so that no client hangs.
            _ = await commit(failed)
            for acknowledge in failed.acknowledgements { acknowledge() }
        }
    }

    private func commit(_ job: Job) async -> Bool {
        do {
            try await log.write(job.batch)
            for acknowledge in job.acknowledgements { acknowledge() }
            return true
        } catch {
            logger.error(
                "cannot write the data log, will retry",
                metadata: ["path": "\(log.path)", "error": "\(error)"]
            )
            return false
        }
    }
}
