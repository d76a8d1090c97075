/// One reading of a footpod or treadmill for the session: its own cumulative distance and its
/// speed as sent (uncalibrated), at an instant on the session's clock.
public struct StrideReading: Sendable, Equatable {
    public var time: GPSTime
    /// The sensor's cumulative count (m); nil when this notification did not carry it.
    public var totalDistance: Double?
    /// m/s; nil when this notification did not carry it.
    public var speed: Double?

    public init(time: GPSTime, totalDistance: Double?, speed: Double?) {
        self.time = time
        self.totalDistance = totalDistance
        self.speed = speed
    }
}

/// An indoor session's distance sensor and what is needed to difference its count.
struct IndoorStride: Sendable {
    let source: DistanceSource
    /// The footpod's calibration by pace band; none for a treadmill.
    let factors: StrideFactors
    var lastTotal: Double?
    /// The last speed, calibrated (m/s), and as the sensor sent it.
    var lastSpeed = 0.0
    var lastRawSpeed = 0.0
}

extension TrackSession {
    /// The factors an indoor footpod or steps session applies; nil otherwise.
    public var footpodFactors: StrideFactors? { indoor?.source.countsStrides == true ? indoor?.factors : nil }

    /// An indoor session: no fix is asked for; `stride` readings of `source` (a footpod or a
    /// treadmill) carry the distance, the timers, auto-pause and splits. `factors` scale the
    /// footpod's distance and speed (its calibration, by its pace band).
    public init(
        indoor activity: Activity,
        source: DistanceSource,
        factors: StrideFactors = .uncalibrated,
        profile: ActivityProfile? = nil,
        heartRateZones: HeartRateZones? = nil,
        energy: EnergySettings? = nil
    ) {
        precondition(source != .gps, "an indoor session's distance comes from a footpod or a treadmill")
        self.init(activity: activity, profile: profile, heartRateZones: heartRateZones, energy: energy)
        indoor = IndoorStride(source: source, factors: factors)
    }

    /// Indoors, a footpod's or treadmill's reading takes the place of a fix: the difference of its
    /// cumulative count is the distance (nothing lost to a notification that never came, or to the
    /// time the link was down); without a count, its speed over the time between readings. A count
    /// that went back (the sensor reset) or jumped faster than the activity allows credits nothing
    /// and is the new baseline. Outdoors, a footpod's reading carries the distance through gaps
    /// (`useFootpod`).
    public mutating func stride(_ reading: StrideReading) -> [TrackEvent] {
        let events = strideReading(reading)
        noteEnergy()
        return events
    }

    private mutating func strideReading(_ reading: StrideReading) -> [TrackEvent] {
        guard var current = indoor else { return footpodReading(reading) }
        defer { indoor = current }
        let time = reading.time
        let factor = current.factors.factor(forSpeed: reading.speed ?? current.lastRawSpeed)
        let speed = reading.speed.map { $0 * factor }
        if let raw = reading.speed { current.lastRawSpeed = raw }
        let previousTotal = current.lastTotal
        if let total = reading.totalDistance { current.lastTotal = total }
        guard let last = lastUsable else {
            current.lastSpeed = speed ?? 0
            acceptedCount += 1
            markUsed(time)
            return []
        }
        let dt = time.since(last)
        guard dt > 0 else { return [] }
        switch manualPause {
        case .paused(let since):
            // Paused by hand: the time line goes on, the distance does not.
            if since == nil { manualPause = .paused(since: time) }
            current.lastSpeed = 0
            markUsed(time)
            return []
        case .resuming(let since):
            let pause = since.map { max(0, time.since($0)) } ?? 0
            manualPausedTime += pause
            covered += pause
            manualPause = .none
            current.lastSpeed = speed ?? 0
            markUsed(time)
            return []
        case .none:
            break
        }
        var step: Double
        if let total = reading.totalDistance, let previousTotal {
            step = total >= previousTotal ? (total - previousTotal) * factor : 0
        } else {
            step = 0.5 * (current.lastSpeed + (speed ?? current.lastSpeed)) * dt
        }
        if step > profile.maxSpeed * dt { step = 0 }
        distance += step
        covered += dt
        current.lastSpeed = speed ?? step / dt
        acceptedCount += 1
        markUsed(time)
        var events: [TrackEvent] = []
        timeStep(at: time, speed: current.lastSpeed, events: &events)
        return events
    }
}
