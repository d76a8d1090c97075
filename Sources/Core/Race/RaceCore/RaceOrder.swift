/// A virtual race as the relay agreed it and the phone hands it on: the wearable needs no common
/// clock with anyone but GPS.
public struct RaceOrder: Sendable, Equatable {
    /// The relay's run id.
    public var run: String
    public var partner: String
    /// The agreed start, UTC (Unix s, the relay's clock).
    public var startAt: Double
    /// The race's distance (m); nil when open.
    public var distance: Double?
    /// Set once the race has started: the session that runs it (a restarted wearable follows it).
    public var session: String?
    /// A race on a course: the kept course both runners follow; progress is compared along it.
    public var course: String?

    public init(
        run: String,
        partner: String,
        startAt: Double,
        distance: Double? = nil,
        session: String? = nil,
        course: String? = nil
    ) {
        self.run = run
        self.partner = partner
        self.startAt = startAt
        self.distance = distance
        self.session = session
        self.course = course
    }
}

/// What a race's command carries, typed at the phone link's edge.
public enum RaceInstruction: Sendable, Equatable {
    /// Arm (or follow) this race; also the race a cancel names.
    case order(RaceOrder)
    /// The partner did something: `sequence` is the phone's order for the run.
    case partner(run: String, sequence: Int64, event: PartnerEvent)
}
