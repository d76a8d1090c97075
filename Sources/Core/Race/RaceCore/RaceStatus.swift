/// The partner as `ctl status` shows it.
public struct RaceStatus: Sendable, Equatable {
    public var partner: String
    public var state: PartnerState
    public var link: PartnerLink
    public var distanceMetres: Double?
    /// Positive when I lead, at the partner's elapsed time.
    public var gapMetres: Double?
    /// Positive when I lead: how long ago the leader was where the other is (s).
    public var gapSeconds: Double?
    /// Seconds since their newest snapshot arrived.
    public var ageSeconds: Double?
    public var leader: String?

    public init(
        partner: String,
        state: PartnerState,
        link: PartnerLink,
        distanceMetres: Double?,
        gapMetres: Double?,
        gapSeconds: Double?,
        ageSeconds: Double?,
        leader: String?
    ) {
        self.partner = partner
        self.state = state
        self.link = link
        self.distanceMetres = distanceMetres
        self.gapMetres = gapMetres
        self.gapSeconds = gapSeconds
        self.ageSeconds = ageSeconds
        self.leader = leader
    }
}
