import TrackCore

/// A file format: told the session, then every item in time order, then the totals.
public protocol Exporter {
    mutating func begin(_ session: ExportSession, into file: OutputFile) throws(ExportError)
    mutating func take(_ item: ExportItem, into file: OutputFile) throws(ExportError)
    mutating func end(_ totals: ExportTotals, into file: OutputFile) throws(ExportError)
}

/// What every format says about the session itself.
public struct ExportSession: Sendable {
    public var id: String
    public var activity: Activity
    /// GPS time the session started (s since 1970 UTC).
    public var startedAt: Double
    /// Export the smoothed track (what the distance was measured on) or the raw fixes.
    public var smoothed: Bool
    /// gps, or indoors the footpod or treadmill the distance came from: an indoor session has no
    /// track, its records carry distance, speed and cadence.
    public var distanceSource: DistanceSource
    /// The factors an indoor session applied to its footpod, as its log keeps them.
    public var footpodFactors: StrideFactors?
    /// The body mass, load and walking model its energy was costed by; nil: none.
    public var energy: EnergySettings?
    /// The name of the course the session followed; nil: none.
    public var course: String?

    public init(
        id: String,
        activity: Activity,
        startedAt: Double,
        smoothed: Bool = true,
        distanceSource: DistanceSource = .gps,
        footpodFactors: StrideFactors? = nil,
        energy: EnergySettings? = nil,
        course: String? = nil
    ) {
        self.id = id
        self.activity = activity
        self.startedAt = startedAt
        self.smoothed = smoothed
        self.distanceSource = distanceSource
        self.footpodFactors = footpodFactors
        self.energy = energy
        self.course = course
    }
}

/// The session's own totals, from the replayed session (equal to the data log's).
public struct ExportTotals: Sendable {
    public var summary: SessionSummary
    public var firstTime: Double
    public var lastTime: Double

    public init(summary: SessionSummary, firstTime: Double, lastTime: Double) {
        self.summary = summary
        self.firstTime = firstTime
        self.lastTime = lastTime
    }
}
