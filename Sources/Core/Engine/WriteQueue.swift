import SessionCore

/// Rows on their way to the disk: one batch in flight at a time, replies released only by its
/// commit, and what a failing or slow disk costs, decided here and bounded.
///
/// A failed batch is not on disk at all (one transaction): its rows go back in front of what came
/// since and are retried every `retryInterval`. Past `maxPendingRows`, raw fixes are given up
/// first (oldest first), then beats, then notices; lifecycle rows, commands and critical events
/// never. Every row given up is counted.
struct WriteQueue: Sendable {
    /// A reply that goes out when the batch holding its command row commits.
    struct Waiter: Sendable, Equatable {
        var token: ReplyToken
        var reply: CommandReply
    }

    enum Health: Sendable, Equatable {
        case healthy
        case failing(since: Double, failure: StorageFailure, nextAttempt: Double)
    }

    private struct Batch: Sendable {
        var id: Int
        var rows: [LogRow]
        var waiters: [Waiter]
        var commandIDs: Set<String>
    }

    let maxPendingRows: Int
    let retryInterval: Double
    private(set) var health = Health.healthy
    /// Given up since the start, and since the current outage began.
    private(set) var dropped = DropCounts()
    private var outageDropped = DropCounts()
    private var pending = Batch(id: 1, rows: [], waiters: [], commandIDs: [])
    private var inFlight: Batch?
    /// Lifecycle rows or commands are waiting: the next batch goes now, not at the next tick.
    private var urgent = false
    /// The tick's once-a-second commit.
    private var due = false

    init(maxPendingRows: Int, retryInterval: Double) {
        precondition(maxPendingRows > 0 && retryInterval > 0)
        self.maxPendingRows = maxPendingRows
        self.retryInterval = retryInterval
    }

    var pendingRows: Int { pending.rows.count + (inFlight?.rows.count ?? 0) }
    var isFailing: Bool { if case .failing = health { true } else { false } }

    /// Queues rows for the next batch. While storage fails only critical rows are held; the others
    /// are counted as given up (their events are still announced).
    mutating func append(_ rows: [SessionRow]) {
        guard !rows.isEmpty else { return }
        for row in rows { add(.session(row)) }
        if pending.rows.count > maxPendingRows { shed() }
    }

    /// Queues outbox rows (or any rows already wrapped) as `append(_:)` does a session's.
    mutating func append(_ rows: [LogRow]) {
        guard !rows.isEmpty else { return }
        for row in rows { add(row) }
        if pending.rows.count > maxPendingRows { shed() }
    }

    private mutating func add(_ row: LogRow) {
        if isFailing, row.retention != .critical {
            skipped(row.retention)
            return
        }
        if row.isUrgent { urgent = true }
        if let id = row.commandID { pending.commandIDs.insert(id) }
        pending.rows.append(row)
    }

    /// The tick: whatever is pending goes in the next batch.
    mutating func commitDue() { due = true }

    /// Rows already waiting (recovery's) go with the next flush, not the next tick.
    mutating func flushNow() { urgent = true }

    /// Counts what was never logged because storage was failing.
    mutating func skipped(_ retention: SessionRow.Retention) {
        dropped.count(retention)
        outageDropped.count(retention)
    }

    /// True while the command's row is logged but not yet committed.
    func isUndurable(_ commandID: String) -> Bool {
        pending.commandIDs.contains(commandID) || inFlight?.commandIDs.contains(commandID) == true
    }

    /// Answers `waiter` when the batch holding its command row commits (or fails).
    mutating func wait(_ waiter: Waiter) {
        if inFlight?.commandIDs.contains(waiter.reply.commandID) == true {
            inFlight?.waiters.append(waiter)
        } else {
            pending.waiters.append(waiter)
        }
    }

    /// Whether a batch should go now: one is due, none is in flight, and storage is not waiting
    /// for its next attempt.
    func isReady(now: Double) -> Bool {
        guard inFlight == nil, urgent || due else { return false }
        if case .failing(_, _, let nextAttempt) = health, now < nextAttempt { return false }
        return true
    }

    var hasInFlight: Bool { inFlight != nil }
    var hasPendingRows: Bool { !pending.rows.isEmpty }

    /// The next batch (with `live` riding along), once `isReady`; nil when there is nothing to write.
    mutating func take(live: LiveFigures?) -> WriteBatch? {
        precondition(inFlight == nil, "one batch in flight at a time")
        urgent = false
        due = false
        guard !pending.rows.isEmpty || !pending.waiters.isEmpty || live != nil else { return nil }
        let batch = pending
        inFlight = batch
        pending = Batch(id: batch.id + 1, rows: [], waiters: [], commandIDs: [])
        return WriteBatch(id: batch.id, rows: batch.rows, live: live)
    }

    /// The batch is on disk: its waiters' replies go out; an outage, if there was one, is over.
    mutating func committed(
        _ id: Int,
        now: Double
    ) -> (waiters: [Waiter], recovered: (after: Double, dropped: DropCounts)?) {
        guard let batch = inFlight, batch.id == id else { return ([], nil) }
        inFlight = nil
        guard case .failing(let since, _, _) = health else { return (batch.waiters, nil) }
        health = .healthy
        defer { outageDropped = DropCounts() }
        return (batch.waiters, (now - since, outageDropped))
    }

    /// Nothing of the batch is on disk: its rows wait in front of newer ones for the next attempt;
    /// its waiters are answered (not durable) now. `began` when storage was healthy until now.
    mutating func failed(_ id: Int, _ failure: StorageFailure, now: Double) -> (waiters: [Waiter], began: Bool) {
        guard let batch = inFlight, batch.id == id else { return ([], false) }
        inFlight = nil
        pending.rows = batch.rows + pending.rows
        pending.commandIDs.formUnion(batch.commandIDs)
        let began: Bool
        switch health {
        case .healthy:
            health = .failing(since: now, failure: failure, nextAttempt: now + retryInterval)
            began = true
        case .failing(let since, _, _):
            health = .failing(since: since, failure: failure, nextAttempt: now + retryInterval)
            began = false
        }
        if pending.rows.count > maxPendingRows { shed() }
        return (batch.waiters, began)
    }

    /// Every waiter still here, for the end: nothing else will answer them.
    mutating func abandonWaiters() -> [Waiter] {
        defer {
            pending.waiters = []
            inFlight?.waiters = []
        }
        return (inFlight?.waiters ?? []) + pending.waiters
    }

    /// Gives up the oldest rows of the least needed kind until a tenth under the bound.
    private mutating func shed() {
        var excess = pending.rows.count - maxPendingRows * 9 / 10
        for retention in [SessionRow.Retention.fix, .beat, .notice] where excess > 0 {
            var removed = 0
            var kept: [LogRow] = []
            kept.reserveCapacity(pending.rows.count)
            for row in pending.rows {
                if removed < excess, row.retention == retention {
                    removed += 1
                } else {
                    kept.append(row)
                }
            }
            pending.rows = kept
            dropped.count(retention, removed)
            outageDropped.count(retention, removed)
            excess -= removed
        }
    }
}
