/// Who leads, with hysteresis: a new leader only once the gap has stayed beyond the margin on their
/// side for the hold time. Gaps inside the margin change nothing and restart the hold.
public struct LeadJudge: Sendable, Equatable {
    public enum Side: Sendable, Equatable {
        case me, partner
    }

    public let margin: Double
    public let hold: Double
    public private(set) var leader: Side?
    private var pending: (side: Side, since: Double)?

    public init(margin: Double, hold: Double) {
        self.margin = margin
        self.hold = hold
    }

    public static func == (left: LeadJudge, right: LeadJudge) -> Bool {
        left.leader == right.leader && left.pending?.side == right.pending?.side
            && left.pending?.since == right.pending?.since
    }

    /// The leader known from before a restart: only a change from it is news.
    public mutating func remember(leader: Side?) {
        self.leader = leader
        pending = nil
    }

    /// The gap (m, positive when I lead) observed at `now`; the news when the lead changes.
    public mutating func observe(gap: Double, now: Double) -> RaceNews? {
        let side: Side? = gap > margin ? .me : gap < -margin ? .partner : nil
        guard let side, side != leader else {
            pending = nil
            return nil
        }
        if pending?.side != side { pending = (side, now) }
        guard let pending, now - pending.since >= hold else { return nil }
        leader = side
        self.pending = nil
        return side == .me ? .leadTaken(gapMetres: gap) : .leadLost(gapMetres: -gap)
    }
}
