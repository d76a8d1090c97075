import RaceCore
import SessionCore
import TrackCore

extension SessionEngine {
    /// A fix seen within this long (s) is a fix "now": a race is armed only with one.
    static let raceFixFreshness = 5.0

    /// A race's command, once the log said its id is new: armed, cancelled, followed or a partner
    /// event applied; the refusal, if any, and what to say.
    mutating func raceAnswer(_ request: CommandRequest, _ now: Instant) -> (RefusalCode?, String) {
        switch (request.command, request.race) {
        case (.race, .order(let order)?):
            return order.session == nil ? arm(order, activity: request.activity, now) : follow(order, now)
        case (.cancelRace, .order(let order)?):
            guard let race, race.order.run == order.run, race.isArmed else {
                return (nil, "no countdown for that race here: nothing to cancel")
            }
            self.race = nil
            raceEvent(.disarmed(run: order.run, reason: "cancelled"), now)
            return (nil, "the countdown was cancelled")
        case (.partnerEvent, .partner(let run, let sequence, let event)?):
            var news: [RaceNews]
            if var race, race.order.run == run {
                news = race.partner(event: event, sequence: sequence)
                self.race = race
            } else {
                // Not followed here (a restart after my own finish): the event is still told, once.
                news = [event.news]
            }
            raceEvent(.partner(event, sequence: sequence), now)
            for item in news { raceEvent(.news(item), now) }
            return (nil, "partner event \(sequence) applied")
        default:
            return (.invalid, "a race's command without its race")
        }
    }

    /// Arms the countdown: only with a GPS fix (and so GPS time) now and no session under way.
    /// Indoors (`[session] indoor` with a footpod or treadmill) no fix is asked for: the countdown
    /// runs on the system clock, synchronised by NTP, and the start says so.
    private mutating func arm(_ order: RaceOrder, activity: Activity?, _ now: Instant) -> (RefusalCode?, String) {
        if let race, race.order.run == order.run, race.isArmed {
            return (nil, "already armed for this race")
        }
        guard controller.lifecycle.state == .idle else {
            return (.alreadyActive, "not ready: a session is already \(controller.lifecycle.state.name)")
        }
        let indoor = configuration.session.indoorByDefault && configuration.session.indoorSource != nil
        if indoor {
            raceClock.system(utc: now.system, monotonic: now.monotonic)
        } else {
            guard let usable = lastUsableAt, now.monotonic - usable <= Self.raceFixFreshness, raceClock.source == .gps
            else {
                return (.notReady, "not ready: no GPS fix yet")
            }
        }
        guard let start = raceClock.monotonic(forUTC: order.startAt), start > now.monotonic else {
            return (.expired, "the agreed start has passed")
        }
        if let course = order.course, courses.course(named: course) == nil {
            return (.notReady, "not ready: the race's course \"\(course)\" is not kept here yet")
        }
        race = WearableRace(order: order, start: start, now: now.monotonic, settings: configuration.race)
        raceActivity = activity
        if let next = race?.nextCallAt { actions.append(.wake(at: next)) }
        let clock = raceClock.source ?? .system
        raceEvent(.armed(run: order.run, partner: order.partner, startsIn: start - now.monotonic, clock: clock), now)
        let seconds = Int((start - now.monotonic).rounded())
        return (nil, "armed: the race with \(order.partner) starts in \(seconds) s")
    }

    /// Follows a race already under way in its session: asked by the phone, or (`leaderIsMe` known)
    /// by a restarted wearable whose log kept the race.
    private mutating func follow(
        _ order: RaceOrder,
        leaderIsMe: Bool? = nil,
        _ now: Instant
    ) -> (RefusalCode?, String) {
        if let race, race.order.run == order.run, race.session == order.session {
            return (nil, "already following this race")
        }
        guard let open = controller.session?.id, open == order.session else {
            return (.notActive, "the race's session is not open here")
        }
        race = WearableRace(following: order, session: open, leaderIsMe: leaderIsMe, settings: configuration.race)
        raceEvent(.followed(run: order.run, partner: order.partner), now)
        return (nil, "following the race with \(order.partner)")
    }

    /// The clock's part: the countdown's calls, the start at "go", the partner's silence.
    mutating func raceTick(_ now: Instant) {
        raceClock.system(utc: now.system, monotonic: now.monotonic)
        guard race != nil else { return }
        if race!.isArmed, let start = raceClock.monotonic(forUTC: race!.order.startAt) { race!.retarget(start: start) }
        for call in race!.countdown(now: now.monotonic) {
            raceEvent(.countdown(call), now)
            if case .go = call { go(now) }
        }
        for news in race?.tick(now: now.monotonic) ?? [] { raceEvent(.news(news), now) }
        if let next = race?.nextCallAt { actions.append(.wake(at: next)) }
    }

    /// The agreed instant: the session starts, and its offset from the instant is reported.
    private mutating func go(_ now: Instant) {
        guard var race else { return }
        let reply = controller.handle(
            .start,
            id: "race-start-\(race.order.run)",
            activity: raceActivity,
            receivedAt: now.monotonic,
            systemTime: now.system,
            into: &output
        )
        guard reply.accepted, let session = reply.sessionID else {
            self.race = nil
            raceEvent(.disarmed(run: race.order.run, reason: reply.message), now)
            return
        }
        race.began(session: session)
        self.race = race
        if let course = race.order.course { follow(course: course, now) }
        let utc = raceClock.utc(atMonotonic: now.monotonic) ?? now.system
        let offset = Int(((utc - race.order.startAt) * 1000).rounded())
        let clock = raceClock.source ?? .system
        let order = race.order
        raceEvent(
            .started(
                run: order.run,
                partner: order.partner,
                startAt: order.startAt,
                offsetMilliseconds: offset,
                clock: clock,
                course: order.course
            ),
            now
        )
    }

    /// A restarted wearable follows the race its recovered session runs (the log kept it).
    public mutating func follow(recovered order: RaceOrder, leaderIsMe: Bool?, at now: Instant) {
        _ = follow(order, leaderIsMe: leaderIsMe, now)
    }

    /// A fix taught the race clock GPS time; in the race's session it is also my progress.
    mutating func raceFix(_ fix: Fix, _ now: Instant) {
        guard let time = fix.time, let receivedAt = fix.receivedAt else { return }
        raceClock.gps(utc: time.seconds, monotonic: receivedAt)
        guard var race, let session = race.session, controller.session?.id == session,
            let distance = raceProgress(race, gps: controller.session?.track.distance)
        else { return }
        for news in race.own(gpsTime: time.seconds, distance: distance, now: now.monotonic) {
            raceEvent(.news(news), now)
        }
        self.race = race
    }

    /// Indoors, my progress comes with the footpod's or treadmill's readings, dated by the race clock.
    mutating func raceStride(receivedAt: Double, _ now: Instant) {
        guard var race, let session = race.session, let open = controller.session, open.id == session,
            open.track.distanceSource != .gps, let utc = raceClock.utc(atMonotonic: receivedAt)
        else { return }
        for news in race.own(gpsTime: utc, distance: open.track.distance, now: now.monotonic) {
            raceEvent(.news(news), now)
        }
        self.race = race
    }

    /// The partner's newest figures, from the phone: newest wins, an expired one is not shown.
    mutating func partnerSnapshot(_ report: PartnerSnapshotReport, _ now: Instant) {
        guard var race, race.order.run == report.run else { return }
        if let expires = report.expiresAt, let utc = raceClock.utc(atMonotonic: now.monotonic), utc > expires { return }
        let elapsed = report.gpsTime.map { $0 - race.order.startAt } ?? report.elapsed
        // On a course both runners are compared along it; a partner whose figures carry no
        // distance along it (an app that follows no course) by the distance they ran.
        let distance = race.order.course == nil ? report.distance : report.courseDistance ?? report.distance
        let snapshot = PartnerSnapshot(
            sequence: report.sequence,
            distanceMetres: distance,
            elapsedSeconds: elapsed,
            paused: report.paused,
            receivedAt: now.monotonic
        )
        for news in race.partner(snapshot) { raceEvent(.news(news), now) }
        self.race = race
    }

    /// My progress in `race`: on a course, the distance along it the follower has reached (nil
    /// until the course is followed); else the distance run.
    func raceProgress(_ race: WearableRace, gps distance: Double?) -> Double? {
        guard let course = race.order.course else { return distance }
        guard let follower, follower.course.name == course else { return nil }
        return follower.progress().done
    }

    /// My session ended: the race is kept for the partner's news.
    mutating func raceSessionEnded(_ sessionID: String?) {
        guard var race, race.session == sessionID else { return }
        race.ended()
        self.race = race
    }

    private mutating func raceEvent(_ event: RaceEvent, _ now: Instant) {
        controller.event(.race(event), receivedAt: now.monotonic, into: &output)
    }
}
