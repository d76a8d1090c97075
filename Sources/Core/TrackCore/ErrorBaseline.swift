#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The receiver's typical horizontal error: the median of its reported errors over the last
/// couple of minutes.
///
/// A median over minutes ignores a multipath burst yet follows a receiver whose `eph` is
/// DOP-derived (15-25 m on good fixes) or a lasting change of sky. It samples at most once per
/// second of GPS time, so a 10 Hz receiver and a duplicate-happy one weigh the same, and keeps a
/// log-spaced histogram (12% bins) so that each fix costs a few dozen operations, not a sort.
public struct ErrorBaseline: Sendable {
    private static let binCount = 64
    private static let smallest = 0.5
    private static let binsPerNatural = 9.0

    public let window: Int
    private var histogram = [Int](repeating: 0, count: ErrorBaseline.binCount)
    private var ring: [UInt8]
    private var ringNext = 0
    private var filled = 0
    private var lastSample: GPSTime?
    /// The last error and its bin: receivers repeat their error for long stretches, and a
    /// logarithm per sample is most of this type's cost.
    private var lastError = -1.0
    private var lastBin = 0
    public private(set) var value: Double?
    /// The geometric middle of each bin, worked out once for all baselines rather than at every
    /// median (a table per instance would be one more buffer retained on every copy of a session).
    private static let binValues: [Double] = (0..<binCount).map {
        smallest * exp((Double($0) + 0.5) / binsPerNatural)
    }

    public init(window: Int = 120) {
        precondition(window > 0)
        self.window = window
        ring = [UInt8](repeating: 0, count: window)
    }

    public mutating func observe(_ error: Double, at time: GPSTime) {
        guard error.isFinite, error >= 0 else { return }
        if let lastSample, abs(time.since(lastSample)) < 1 { return }
        lastSample = time
        if error != lastError {
            lastError = error
            lastBin = Self.bin(for: error)
        }
        let bin = lastBin
        var unchanged = false
        if filled == window {
            let leaving = Int(ring[ringNext])
            histogram[leaving] -= 1
            unchanged = leaving == bin
        } else {
            filled += 1
        }
        ring[ringNext] = UInt8(bin)
        ringNext = (ringNext + 1) % window
        histogram[bin] += 1
        // A full window that loses the same bin it gains keeps its median.
        if !unchanged || value == nil { value = median() }
    }

    private func median() -> Double {
        let half = (filled + 1) / 2
        var seen = 0
        for bin in 0..<Self.binCount {
            seen += histogram[bin]
            if seen >= half { return Self.binValues[bin] }
        }
        return Self.binValues[Self.binCount - 1]
    }

    private static func bin(for error: Double) -> Int {
        guard error > smallest else { return 0 }
        return min(binCount - 1, Int(log(error / smallest) * binsPerNatural))
    }

}
