import TrackCore

/// What the rules speak and when: `[cues]` in the configuration, as values.
public struct CueSettings: Sendable, Equatable {
    /// The figures a periodic summary may speak, in the order spoken.
    public enum Figure: String, Sendable, CaseIterable, Codable {
        case distance
        case elapsed
        case averagePace = "average_pace"
        case currentPace = "current_pace"
        case heartRate = "heart_rate"
        case averageHeartRate = "average_heart_rate"
        /// The footpod's steps per minute.
        case cadence
    }

    /// The kinds spoken (a summary also needs a trigger below: none by default).
    public var groups: Set<CueGroup>
    /// A summary every this many seconds of moving time; nil for none.
    public var summaryEvery: Double?
    /// A summary every this many metres; nil for none.
    public var summaryEveryDistance: Double?
    public var summaryFigures: [Figure]
    /// The wearer's zones (from `[strap] max_heart_rate`); nil without a strap.
    public var zones: HeartRateZones?
    /// Beats past a zone's boundary before the zone counts as entered (or left).
    public var zoneHysteresis: Double
    /// Seconds a new zone must hold before it is spoken.
    public var zoneHold: Double
    /// At most one zone cue per this many seconds.
    public var zoneMinInterval: Double
    /// Speak "above / below / back in zone N" instead of every zone entered.
    public var targetZone: Int?
    /// Seconds an auto-pause, a lost strap or a lost phone link must hold before it is spoken, so
    /// that flapping (under trees, at the edge of range) says nothing.
    public var dwell: Double
    /// While GPS stays lost, say so again this often (s).
    public var gpsReminder: Double
    /// A strap battery at or below this (%) is spoken once per session.
    public var batteryLowAt: Int
    /// No summary and no zone cue while paused (by hand or auto).
    public var quietWhilePaused: Bool
    /// Seconds a cue may wait, by priority: a stale pace is worse than none.
    public var freshness: [CuePriority: Double]

    public init(
        groups: Set<CueGroup> = Set(CueGroup.allCases),
        summaryEvery: Double? = nil,
        summaryEveryDistance: Double? = nil,
        summaryFigures: [Figure] = [.distance, .elapsed, .averagePace, .heartRate],
        zones: HeartRateZones? = nil,
        zoneHysteresis: Double = 3,
        zoneHold: Double = 5,
        zoneMinInterval: Double = 60,
        targetZone: Int? = nil,
        dwell: Double = 6,
        gpsReminder: Double = 180,
        batteryLowAt: Int = 15,
        quietWhilePaused: Bool = true,
        freshness: [CuePriority: Double] = [.urgent: 20, .training: 15, .periodic: 8]
    ) {
        self.groups = groups
        self.summaryEvery = summaryEvery
        self.summaryEveryDistance = summaryEveryDistance
        self.summaryFigures = summaryFigures
        self.zones = zones
        self.zoneHysteresis = zoneHysteresis
        self.zoneHold = zoneHold
        self.zoneMinInterval = zoneMinInterval
        self.targetZone = targetZone
        self.dwell = dwell
        self.gpsReminder = gpsReminder
        self.batteryLowAt = batteryLowAt
        self.quietWhilePaused = quietWhilePaused
        self.freshness = freshness
    }

    public func freshness(of kind: CueKind) -> Double { freshness[kind.priority] ?? 15 }
}
