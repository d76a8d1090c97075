/// A footpod's calibration as an indoor session applies it: a factor per pace band (runner's
/// metres per footpod metre), chosen by the footpod's own speed. One band when the stride does not
/// change with pace; all ones when the footpod was never calibrated.
public struct StrideFactors: Sendable, Equatable, Codable {
    /// Upper bounds (m/s) of the bands, slowest first; the last band is open above.
    public var edges: [Double]
    /// One per band: `edges.count + 1` factors.
    public var factors: [Double]

    public static let uncalibrated = StrideFactors(edges: [], factors: [1])

    public init(edges: [Double], factors: [Double]) {
        precondition(factors.count == edges.count + 1, "one factor per band")
        self.edges = edges
        self.factors = factors.map { $0.isFinite && $0 > 0 ? $0 : 1 }
    }

    /// The factor for a footpod speed (m/s, as it reports it).
    public func factor(forSpeed speed: Double) -> Double {
        factors[edges.firstIndex { speed < $0 } ?? edges.count]
    }
}
