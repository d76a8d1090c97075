/// The wearable's idea of UTC for a race's start, on its monotonic clock: the offset between the
/// two learnt from gpsd's TPV times (good to about a second without PPS, and the same on both
/// wearables), the system clock's only until GPS has taught it (a Pi has no RTC, so that one may
/// be anything). A receiver's time that jumps away from the rest is not believed.
public struct RaceClock: Sendable, Equatable {
    public enum Source: String, Sendable, Equatable {
        case gps, system
    }

    /// How many recent GPS samples the estimate is the median of.
    public let window: Int
    /// A GPS sample this far (s) from the estimate is an outlier once the window has 5 samples.
    public let outlier: Double
    private var samples: [Double] = []
    private var systemOffset: Double?
    public private(set) var rejected = 0

    public init(window: Int = 31, outlier: Double = 2) {
        self.window = window
        self.outlier = outlier
    }

    /// A TPV's UTC time and the monotonic instant it arrived.
    public mutating func gps(utc: Double, monotonic: Double) {
        let offset = utc - monotonic
        if samples.count >= 5, let estimate = gpsOffset, abs(offset - estimate) > outlier {
            rejected += 1
            return
        }
        samples.append(offset)
        if samples.count > window { samples.removeFirst(samples.count - window) }
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

    private var gpsOffset: Double? {
        guard !samples.isEmpty else { return nil }
        let sorted = samples.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}
