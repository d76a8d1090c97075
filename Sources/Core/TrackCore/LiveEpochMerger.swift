/// `EpochMerger` for a live stream: an epoch goes to the core as soon as its last report is in,
/// not one epoch late.
///
/// gpsd sends a steady number of TPVs per epoch for a given receiver (one per sentence that
/// carries a fix). The merger learns that number from the last epochs and releases an epoch when
/// it has that many reports; an epoch that falls short goes out with the next epoch or, failing
/// that, at `flush(now:)` once `maximumWait` has passed. No timer per report is needed.
public struct LiveEpochMerger: Sendable {
    private var pending: Fix?
    private var pendingCount = 0
    /// Receive instant of the held epoch's first report.
    private var pendingSince: Double?
    /// Reports per epoch of the last completed epochs, newest last.
    private var history: [Int] = []
    private var lastEmitted: (time: GPSTime, count: Int)?
    public private(set) var mergedCount = 0
    public static let historyLength = 16
    /// How long a short epoch may be held when no next epoch comes (GPS lost): `flush(now:)`.
    public static let maximumWait = 0.25
    private let epochTolerance = 0.001

    public init() {}

    /// Reports per epoch expected now: the most seen recently; nil until an epoch completed.
    public var expectedReports: Int? { history.max() }

    /// Adds a report received at `now`; returns the fixes now complete, in order.
    public mutating func add(_ fix: Fix, now: Double) -> [Fix] {
        guard let time = fix.time else {
            return release() + [fix]
        }
        if var current = pending, let currentTime = current.time, abs(time.since(currentTime)) < epochTolerance {
            current.absorb(fix)
            pending = current
            pendingCount += 1
            mergedCount += 1
            return pendingCount >= (expectedReports ?? .max) ? release() : []
        }
        if let last = lastEmitted, abs(time.since(last.time)) < epochTolerance {
            // A straggler of an epoch already released: the receiver sends more than it did.
            lastEmitted?.count += 1
            if let index = history.indices.last { history[index] = max(history[index], last.count + 1) }
            return [fix]
        }
        var complete = release()
        pending = fix
        pendingCount = 1
        pendingSince = now
        if pendingCount >= (expectedReports ?? .max) { complete += release() }
        return complete
    }

    /// The held epoch, once `maximumWait` has passed since its first report.
    public mutating func flush(now: Double) -> Fix? {
        guard let since = pendingSince, now - since >= Self.maximumWait else { return nil }
        return release().first
    }

    /// Whatever is held, at shutdown or when gpsd goes away.
    public mutating func flushAll() -> Fix? {
        release().first
    }

    private mutating func release() -> [Fix] {
        guard let fix = pending else { return [] }
        history.append(pendingCount)
        if history.count > Self.historyLength { history.removeFirst() }
        if let time = fix.time { lastEmitted = (time, pendingCount) }
        pending = nil
        pendingCount = 0
        pendingSince = nil
        return [fix]
    }
}
