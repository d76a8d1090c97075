/// Heart-rate zones as fractions of the wearer's maximum heart rate.
public struct HeartRateZones: Sendable, Equatable {
    public var maxHeartRate: Double
    /// Lower bounds of zones 1...n as fractions of `maxHeartRate`, ascending; below the first is zone 0.
    public var lowerBounds: [Double]

    /// The common five-zone model: 50, 60, 70, 80, 90% of maximum.
    public init(maxHeartRate: Double, lowerBounds: [Double] = [0.5, 0.6, 0.7, 0.8, 0.9]) {
        precondition(maxHeartRate > 0, "maximum heart rate must be positive")
        precondition(lowerBounds == lowerBounds.sorted(), "zone bounds must ascend")
        self.maxHeartRate = maxHeartRate
        self.lowerBounds = lowerBounds
    }

    public var count: Int { lowerBounds.count + 1 }

    public func zone(for bpm: Double) -> Int {
        let fraction = bpm / maxHeartRate
        return lowerBounds.lastIndex { fraction >= $0 }.map { $0 + 1 } ?? 0
    }
}
