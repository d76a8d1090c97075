import RaceCore
import RelayContract

/// Two runners' routes of one race side by side: who led where, judged as the wearable judges the
/// lead during the race (`LeadJudge`, the same margin and hold), from each route's distance against
/// time, a second at a time. Pure.
public struct RouteComparison: Sendable, Equatable {
    /// A change of the lead: at `elapsed` s since the start `leader` took it, at their distance
    /// `distance` (m), `gap` metres ahead.
    public struct LeadChange: Sendable, Equatable {
        public enum Leader: Sendable, Equatable {
            case mine, partner
        }

        public var elapsed: Double
        public var leader: Leader
        public var distance: Double
        public var gap: Double
    }

    public let changes: [LeadChange]

    public init(mine: RelayRoute, partner: RelayRoute, settings: RaceSettings = RaceSettings()) {
        var judge = LeadJudge(margin: settings.leadMargin, hold: settings.leadHold)
        var changes: [LeadChange] = []
        let end = max(mine.end.elapsed, partner.end.elapsed)
        var second = 0.0
        while second <= end {
            let own = mine.distance(at: second)
            let theirs = partner.distance(at: second)
            switch judge.observe(gap: own - theirs, now: second) {
            case .leadTaken(let gap):
                changes.append(LeadChange(elapsed: second, leader: .mine, distance: own, gap: gap))
            case .leadLost(let gap):
                changes.append(LeadChange(elapsed: second, leader: .partner, distance: theirs, gap: gap))
            default:
                break
            }
            second += 1
        }
        self.changes = changes
    }
}
