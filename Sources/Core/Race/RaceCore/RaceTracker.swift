/// The race as the wearable follows it, pure: my own progress, the partner's snapshots and events
/// and the time go in; news (lead changes, the partner's pause, finish, loss) and a status come out.
/// Snapshots are newest-wins by sequence; events are passed on once each, by sequence.
public struct RaceTracker: Sendable, Equatable {
    public let partner: String
    public let settings: RaceSettings
    private var own: OwnProgress
    /// Both runners' whole races, for the gap in time at the same point of the way.
    private var ownTrail = ProgressTrail()
    private var partnerTrail = ProgressTrail()
    private var lead: LeadJudge
    private var newest: PartnerSnapshot?
    private var eventMark: Int64 = 0
    private var state: PartnerState = .waiting
    private var lostSaid = false

    public init(partner: String, settings: RaceSettings = RaceSettings()) {
        self.partner = partner
        self.settings = settings
        self.own = OwnProgress(keep: settings.historySeconds)
        self.lead = LeadJudge(margin: settings.leadMargin, hold: settings.leadHold)
    }

    /// Who led when the wearable last knew (its log, after a restart): `true` for me. Saying it again
    /// after a restart would be news that is not new.
    public mutating func remember(leaderIsMe: Bool?) {
        lead.remember(leader: leaderIsMe.map { $0 ? .me : .partner })
    }

    /// My distance at my elapsed time since the common start.
    public mutating func own(elapsedSeconds: Double, distanceMetres: Double, now: Double) -> [RaceNews] {
        own.record(elapsed: elapsedSeconds, distance: distanceMetres)
        ownTrail.record(elapsed: elapsedSeconds, distance: distanceMetres)
        return judge(now: now)
    }

    /// A partner snapshot; one older than the newest held changes nothing.
    public mutating func partner(_ snapshot: PartnerSnapshot) -> [RaceNews] {
        if let newest, snapshot.sequence <= newest.sequence { return [] }
        newest = snapshot
        partnerTrail.record(elapsed: snapshot.elapsedSeconds, distance: snapshot.distanceMetres)
        var news: [RaceNews] = []
        if lostSaid {
            lostSaid = false
            news.append(.partnerBack)
        }
        if state == .waiting { state = snapshot.paused ? .paused : .running }
        return news + judge(now: snapshot.receivedAt)
    }

    /// A partner event with its sequence on the relay; a repeat or an older one is ignored.
    public mutating func partner(event: PartnerEvent, sequence: Int64) -> [RaceNews] {
        guard sequence > eventMark else { return [] }
        eventMark = sequence
        switch event {
        case .paused:
            guard state != .finished, state != .abandoned else { return [] }
            state = .paused
        case .resumed:
            guard state == .paused else { return [] }
            state = .running
        case .split:
            break
        case .finished:
            state = .finished
        case .abandoned:
            guard state != .finished else { return [] }
            state = .abandoned
        }
        return [event.news]
    }

    /// The clock: a partner silent too long is lost (unless paused or done), said once.
    public mutating func tick(now: Double) -> [RaceNews] {
        var news = judge(now: now)
        if link(now: now) == .lost, state == .running, !lostSaid {
            lostSaid = true
            news.append(.partnerLost)
        }
        return news
    }

    public func status(now: Double) -> RaceStatus {
        RaceStatus(
            partner: partner,
            state: state,
            link: link(now: now),
            distanceMetres: newest?.distanceMetres,
            gapMetres: gap(),
            gapSeconds: gapSeconds(),
            ageSeconds: newest.map { now - $0.receivedAt },
            leader: lead.leader.map { $0 == .me ? "me" : partner }
        )
    }

    /// Positive when I lead: my distance at the partner's elapsed time minus theirs.
    private func gap() -> Double? {
        guard let newest, let mine = own.distance(at: newest.elapsedSeconds) else { return nil }
        return mine - newest.distanceMetres
    }

    /// Positive when I lead: how long before the partner's newest figures the leader was where the
    /// other is then (at the same point of the way, so a stand or a climb counts as the time it
    /// took); 0 while neither is beyond the other, nil before both have figures.
    private func gapSeconds() -> Double? {
        guard let newest, let mine = own.distance(at: newest.elapsedSeconds) else { return nil }
        let now = newest.elapsedSeconds
        if mine >= newest.distanceMetres {
            return ownTrail.elapsed(passing: newest.distanceMetres).map { max(0, now - $0) } ?? 0
        }
        return partnerTrail.elapsed(passing: mine).map { -max(0, now - $0) } ?? 0
    }

    private func link(now: Double) -> PartnerLink {
        guard let newest else { return .lost }
        let age = now - newest.receivedAt
        return age <= settings.staleAfter ? .live : age <= settings.lostAfter ? .stale : .lost
    }

    /// The lead is judged only on fresh figures while both are racing.
    private mutating func judge(now: Double) -> [RaceNews] {
        guard state == .running || state == .paused, link(now: now) != .lost, let gap = gap() else { return [] }
        return lead.observe(gap: gap, now: now).map { [$0] } ?? []
    }
}
