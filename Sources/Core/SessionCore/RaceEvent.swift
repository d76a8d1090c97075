import RaceCore

/// A virtual race's news as every sink hears it: the cues speak it, the log keeps it, `ctl status`
/// and the phone read it. Typed until the store's edge, like every session event.
public enum RaceEvent: Sendable, Equatable {
    /// The countdown is set: the session starts at the agreed instant, `startsIn` seconds from now.
    case armed(run: String, partner: String, startsIn: Double, clock: RaceClock.Source)
    /// The race will not start here (cancelled by the relay or the partner, or the start was missed).
    case disarmed(run: String, reason: String)
    case countdown(Countdown.Call)
    /// The session began `offsetMilliseconds` after the agreed instant (negative: before).
    /// The log keeps the race with it (and the course it is on, if any), so that a restarted
    /// wearable follows the race again.
    case started(
        run: String,
        partner: String,
        startAt: Double,
        offsetMilliseconds: Int,
        clock: RaceClock.Source,
        course: String? = nil
    )
    /// A restarted wearable (or a phone that reconnected) follows a race already under way.
    case followed(run: String, partner: String)
    /// A partner event applied (`sequence` is the phone's order for the run): exactly once each.
    case partner(PartnerEvent, sequence: Int64)
    /// Lead changes, the partner's pause, finish and loss, as the race tracker judged them.
    case news(RaceNews)
}
