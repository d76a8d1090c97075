import Foundation

/// A small deterministic generator (SplitMix64), so that every test and benchmark run sees the
/// same noise.
public struct SplitMix: Sendable {
    public var state: UInt64

    public init(seed: UInt64) { state = seed }

    /// 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    public mutating func uniform() -> Double {
        Double(next() >> 11) / Double(1 << 53)
    }

    /// Standard normal, by Box-Muller.
    public mutating func gaussian() -> Double {
        let u = max(uniform(), 1e-12)
        let v = uniform()
        return (-2 * log(u)).squareRoot() * cos(2 * Double.pi * v)
    }
}
