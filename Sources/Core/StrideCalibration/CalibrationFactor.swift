/// A footpod's learnt factor (GPS metres per footpod metre) with how sure it is: the weighted mean
/// of its stretches' ratios, each weighted by its length squared (GPS's error over a stretch is a
/// few metres whatever its length, so its share falls with the length).
public struct CalibrationFactor: Sendable, Equatable, Codable {
    public var factor: Double
    /// Standard error of the factor (same unit); infinite with fewer than two stretches.
    public var standardError: Double
    public var stretches: Int
    public var metres: Double

    public init(factor: Double, standardError: Double, stretches: Int, metres: Double) {
        self.factor = factor
        self.standardError = standardError
        self.stretches = stretches
        self.metres = metres
    }

    /// The factor of `stretches`, nil without any.
    public init?(of stretches: [CalibrationStretch]) {
        guard !stretches.isEmpty else { return nil }
        let weights = stretches.map { $0.gpsMetres * $0.gpsMetres }
        let total = weights.reduce(0, +)
        let mean = zip(stretches, weights).map { $0.ratio * $1 }.reduce(0, +) / total
        factor = mean
        self.stretches = stretches.count
        metres = stretches.map(\.gpsMetres).reduce(0, +)
        guard stretches.count > 1 else {
            standardError = .infinity
            return
        }
        // Weighted variance of the ratios, and the effective number of stretches (Kish).
        let variance = zip(stretches, weights).map { ($0.ratio - mean) * ($0.ratio - mean) * $1 }.reduce(0, +) / total
        let effective = total * total / weights.map { $0 * $0 }.reduce(0, +)
        standardError = (variance / max(1, effective - 1)).squareRoot()
    }
}
