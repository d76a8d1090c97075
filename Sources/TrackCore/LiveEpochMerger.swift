/// `EpochMerger` for a live stream: an epoch is also complete once no report has come for a
/// short while, so a 1 Hz receiver's fix reaches the core in a fraction of a second, not one epoch late.
///
/// The wait adapts to the stream: a fraction of the usual interval between epochs (receive clock),
/// long enough for the rest of an epoch's sentences, short enough not to overlap the next epoch.
public struct LiveEpochMerger: Sendable {
    private var merger = EpochMerger()
    private var lastEpochStart: Double?
    private var epochInterval: Double?
    /// Receive instant after which the held epoch is flushed; nil when nothing is held.
    public private(set) var deadline: Double?
    public static let minimumWait = 0.03
    public static let maximumWait = 0.25

    public init() {}

    public var mergedCount: Int { merger.mergedCount }

    /// Adds a report received at `now`; returns the fixes now complete, in order.
    public mutating func add(_ fix: Fix, now: Double) -> [Fix] {
        var complete: [Fix] = []
        var startedEpoch = true
        merger.add(fix) { complete.append($0) }
        if complete.isEmpty, deadline != nil { startedEpoch = false }
        if startedEpoch, fix.time != nil {
            if let last = lastEpochStart, now > last {
                let interval = now - last
                epochInterval = epochInterval.map { 0.8 * $0 + 0.2 * interval } ?? interval
            }
            lastEpochStart = now
        }
        deadline = fix.time == nil ? nil : now + wait
        return complete
    }

    /// The held epoch if its deadline has passed at `now`.
    public mutating func flush(now: Double) -> Fix? {
        guard let deadline, now >= deadline else { return nil }
        self.deadline = nil
        return merger.flush()
    }

    /// Whatever is held, at shutdown.
    public mutating func flushAll() -> Fix? {
        deadline = nil
        return merger.flush()
    }

    private var wait: Double {
        guard let epochInterval else { return Self.maximumWait }
        return min(Self.maximumWait, max(Self.minimumWait, 0.4 * epochInterval))
    }
}
