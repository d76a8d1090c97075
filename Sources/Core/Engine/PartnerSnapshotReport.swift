/// A virtual race partner's newest figures as the phone link's edge read them off the wire.
public struct PartnerSnapshotReport: Sendable, Equatable {
    public var run: String
    /// The partner's seq on the relay: newest wins.
    public var sequence: Int64
    public var distance: Double
    /// Their GPS time of the figures (Unix s); nil when unknown (then `elapsed` is used).
    public var gpsTime: Double?
    /// Their session's elapsed time (s).
    public var elapsed: Double
    public var paused: Bool
    /// After this UTC instant (the relay's clock) the figures are too old to show.
    public var expiresAt: Double?
    /// A race on a course: their distance along it (m); nil when unknown.
    public var courseDistance: Double?

    public init(
        run: String,
        sequence: Int64,
        distance: Double,
        gpsTime: Double?,
        elapsed: Double,
        paused: Bool,
        expiresAt: Double?,
        courseDistance: Double? = nil
    ) {
        self.run = run
        self.sequence = sequence
        self.distance = distance
        self.gpsTime = gpsTime
        self.elapsed = elapsed
        self.paused = paused
        self.expiresAt = expiresAt
        self.courseDistance = courseDistance
    }
}
