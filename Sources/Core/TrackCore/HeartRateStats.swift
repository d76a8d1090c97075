/// Average, maximum and time in zone from heart-rate samples.
///
/// Each sample's zone holds until the next sample, but never longer than `maxHold`: a strap that
/// drops out does not paint its last value over the silence.
public struct HeartRateStats: Sendable {
    public let zones: HeartRateZones
    public let maxHold: Double
    public private(set) var sampleCount = 0
    public private(set) var invalidCount = 0
    public private(set) var maximum: Int?
    public private(set) var timeInZone: [Double]
    private var sum = 0.0
    private var last: (time: Double, zone: Int)?

    public init(zones: HeartRateZones, maxHold: Double = 5) {
        self.zones = zones
        self.maxHold = maxHold
        timeInZone = Array(repeating: 0, count: zones.count)
    }

    /// Adds a sample taken at `time` seconds on any monotonic clock; beats outside 20...250 are counted as invalid.
    public mutating func add(bpm: Int, at time: Double) {
        guard (20...250).contains(bpm), time.isFinite else {
            invalidCount += 1
            return
        }
        if let last, time > last.time {
            timeInZone[last.zone] += min(time - last.time, maxHold)
        }
        let zone = zones.zone(for: Double(bpm))
        last = (time, zone)
        sampleCount += 1
        sum += Double(bpm)
        maximum = max(maximum ?? bpm, bpm)
    }

    public var average: Double? { sampleCount > 0 ? sum / Double(sampleCount) : nil }
}
