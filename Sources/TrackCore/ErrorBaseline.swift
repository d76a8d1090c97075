/// The receiver's typical horizontal error, learned from the fixes it sends.
///
/// A clipped moving average: a sample counts at most twice the current baseline, so a multipath
/// burst barely moves it while a receiver whose `eph` is DOP-derived (15-25 m) settles where it lives.
public struct ErrorBaseline: Sendable {
    public private(set) var value: Double?
    private let weight: Double

    public init(weight: Double = 0.05) {
        self.weight = weight
    }

    public mutating func observe(_ error: Double, ceiling: Double) {
        guard error.isFinite, error >= 0 else { return }
        guard let current = value else {
            value = min(error, ceiling)
            return
        }
        value = current + weight * (min(error, 2 * current) - current)
    }
}
