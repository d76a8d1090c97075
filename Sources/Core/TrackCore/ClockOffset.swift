/// The offset between GPS epochs and the receive clock, as the least-delayed fix shows it.
///
/// Staleness is judged against this offset, never against wall-clock time: a board without RTC can
/// boot years off, and recordings from past years must replay.
public struct ClockOffset: Sendable {
    /// Smallest `receivedAt - epoch` seen, relaxed upward slowly for clock drift.
    public private(set) var best: Double?
    private var lastEpoch: GPSTime?
    /// Upward relaxation per second of GPS time; far above any crystal's drift.
    private let relaxation = 0.001

    public init() {}

    /// Records a fix and returns how much later than the best offset it arrived (s).
    public mutating func observe(epoch: GPSTime, receivedAt: Double) -> Double {
        let offset = receivedAt - epoch.seconds
        if var current = best, let lastEpoch {
            current += relaxation * max(0, epoch.since(lastEpoch))
            best = min(current, offset)
        } else {
            best = offset
        }
        lastEpoch = max(lastEpoch ?? epoch, epoch)
        return offset - (best ?? offset)
    }

    /// The GPS time that a receive-clock instant corresponds to, once an offset is known.
    public func gpsTime(atReceive instant: Double) -> GPSTime? {
        best.map { GPSTime(seconds: instant - $0) }
    }

    /// Takes this fix's offset as the best: the receive path's delay has really changed.
    public mutating func rebase(epoch: GPSTime, receivedAt: Double) {
        best = receivedAt - epoch.seconds
        lastEpoch = epoch
    }

    public mutating func reset() {
        best = nil
        lastEpoch = nil
    }
}
