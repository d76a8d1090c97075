/// The wearable's idea of UTC for a race's start, on its monotonic clock: the offset between the
/// two learnt from gpsd's TPV times (good to about a second without PPS, and the same on both
/// wearables), the system clock's only until GPS has taught it (a Pi has no RTC, so that one may
/// be anything). A receiver's time that jumps away from the rest is not believed. A fix arrives
/// late by the receive path's delay, never early, so the least-delayed fixes tell UTC best: the
/// estimate is a high quantile of the offsets (a low one of the delays), which no single sample
/// moves.
public struct RaceClock: Sendable, Equatable {
    public enum Source: String, Sendable, Equatable {
        case gps, system
    }

    /// How many recent GPS samples the estimate is the median of.
    public let window: Int
    /// A GPS sample this far (s) from the median is an outlier once the window has 5 samples.
    public let outlier: Double
    /// Which quantile of the offsets near the median is the estimate (0.8: the 20th percentile of
    /// the delays).
    public let quantile: Double
    /// The window's offsets in arrival order, and the same sorted: every fix passes here, so the
    /// median is read off the sorted copy instead of sorting the window again per fix.
    private var samples: [Double] = []
    private var sorted: [Double] = []
    private var systemOffset: Double?
    public private(set) var rejected = 0

    public init(window: Int = 31, outlier: Double = 2, quantile: Double = 0.8) {
        self.window = window
        self.outlier = outlier
        self.quantile = quantile
    }

    /// A TPV's UTC time and the monotonic instant it arrived.
    public mutating func gps(utc: Double, monotonic: Double) {
        let offset = utc - monotonic
        if samples.count >= 5, let median, abs(offset - median) > outlier {
            rejected += 1
            return
        }
        samples.append(offset)
        sorted.insert(offset, at: Self.index(of: offset, in: sorted))
        while samples.count > window {
            let oldest = samples.removeFirst()
            sorted.remove(at: Self.index(of: oldest, in: sorted))
        }
    }

    /// Where `value` is, or would go, in `sorted` (the first index not below it).
    private static func index(of value: Double, in sorted: [Double]) -> Int {
        var low = 0
        var high = sorted.count
        while low < high {
            let middle = (low + high) / 2
            if sorted[middle] < value { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The system clock read with the monotonic one: used only while there is no GPS time.
    public mutating func system(utc: Double, monotonic: Double) {
        systemOffset = utc - monotonic
    }

    /// Where the offset comes from now; nil before either clock was read.
    public var source: Source? {
        !samples.isEmpty ? .gps : systemOffset == nil ? nil : .system
    }

    /// The monotonic instant of `utc`, by the best offset known.
    public func monotonic(forUTC utc: Double) -> Double? {
        guard let offset = gpsOffset ?? systemOffset else { return nil }
        return utc - offset
    }

    /// UTC at monotonic instant `monotonic`, by the best offset known.
    public func utc(atMonotonic monotonic: Double) -> Double? {
        guard let offset = gpsOffset ?? systemOffset else { return nil }
        return monotonic + offset
    }

    private var median: Double? {
        guard !sorted.isEmpty else { return nil }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    private var gpsOffset: Double? {
        guard let median else { return nil }
        let near = sorted.filter { abs($0 - median) <= outlier }
        return near[Int((Double(near.count - 1) * quantile).rounded(.down))]
    }
}
