/// The offset between GPS epochs and the receive clock, as the least-delayed recent fix shows it.
///
/// Staleness is judged against this offset, never against wall-clock time: a board without RTC can
/// boot years off, and recordings from past years must replay.
///
/// The offset is the least `receivedAt - epoch` over the last `window` seconds of GPS time, so a
/// feed whose pace drifts steadily against the receive clock (a replay paced by sleeps, a clock
/// slewed by NTP) is never judged late, while a backlog, late against the fixes just before it,
/// still is.
public struct ClockOffset: Sendable {
    /// The least offset in the window.
    public var best: Double? { candidates.first?.offset }
    /// The fixes that may yet be the least-delayed one: offsets rising, epochs rising.
    private var candidates: [(epoch: Double, offset: Double)] = []
    private var newestEpoch: Double?
    /// Seconds of GPS time over which the least-delayed fix is taken: a drift up to the stale
    /// threshold over this long (2 s in 60 s, over 3 %) is no lateness.
    private let window = 60.0

    public init() {}

    /// Records a fix and returns how much later than the best offset it arrived (s).
    public mutating func observe(epoch: GPSTime, receivedAt: Double) -> Double {
        let offset = receivedAt - epoch.seconds
        if let newestEpoch, epoch.seconds < newestEpoch - window { reset() }
        let newest = max(newestEpoch ?? epoch.seconds, epoch.seconds)
        newestEpoch = newest
        while let last = candidates.last, last.offset >= offset, last.epoch <= epoch.seconds {
            candidates.removeLast()
        }
        candidates.append((epoch.seconds, offset))
        let expired = candidates.prefix { $0.epoch < newest - window }.count
        candidates.removeFirst(min(expired, candidates.count - 1))
        return offset - (best ?? offset)
    }

    /// The GPS time that a receive-clock instant corresponds to, once an offset is known.
    public func gpsTime(atReceive instant: Double) -> GPSTime? {
        best.map { GPSTime(seconds: instant - $0) }
    }

    /// Takes this fix's offset as the best: the receive path's delay has really changed.
    public mutating func rebase(epoch: GPSTime, receivedAt: Double) {
        candidates = [(epoch.seconds, receivedAt - epoch.seconds)]
        newestEpoch = epoch.seconds
    }

    public mutating func reset() {
        candidates = []
        newestEpoch = nil
    }
}
