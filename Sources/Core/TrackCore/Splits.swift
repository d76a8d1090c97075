/// One completed split (a km or a mile).
public struct Split: Sendable, Equatable, Codable {
    /// 1 for the first split.
    public var index: Int
    public var distance: Double
    /// Timer time the split took, auto-paused time excluded (s).
    public var duration: Double
    /// Session timer time at the end of the split (s).
    public var endTimer: Double
    /// Mean of the beats received during the split (bpm); nil without a strap.
    public var averageHeartRate: Double?

    public init(index: Int, distance: Double, duration: Double, endTimer: Double, averageHeartRate: Double? = nil) {
        self.index = index
        self.distance = distance
        self.duration = duration
        self.endTimer = endTimer
        self.averageHeartRate = averageHeartRate
    }

    /// Seconds per kilometre over the split.
    public var pace: Double { distance > 0 ? duration / distance * 1000 : 0 }
}

/// Cuts the session into splits, interpolating the moment each boundary was crossed.
public struct SplitTracker: Sendable {
    public let length: Double
    public private(set) var splits: [Split] = []
    private var lastDistance = 0.0
    private var lastTimer = 0.0

    public init(length: Double) {
        precondition(length > 0, "split length must be positive")
        self.length = length
    }

    /// Feeds the running totals; returns the splits completed by this step (usually none).
    public mutating func update(distance: Double, timer: Double) -> [Split] {
        var completed: [Split] = []
        while distance >= Double(splits.count + 1) * length {
            let boundary = Double(splits.count + 1) * length
            let span = distance - lastDistance
            let fraction = span > 0 ? (boundary - lastDistance) / span : 1
            let at = lastTimer + fraction * (timer - lastTimer)
            let start = splits.last?.endTimer ?? 0
            let split = Split(index: splits.count + 1, distance: length, duration: at - start, endTimer: at)
            splits.append(split)
            completed.append(split)
        }
        lastDistance = distance
        lastTimer = timer
        return completed
    }
}
