/// What the race tells the runner: each becomes a cue, a link message or a line in the log.
public enum RaceNews: Sendable, Equatable {
    /// I took the lead; `gapMetres` ahead.
    case leadTaken(gapMetres: Double)
    /// The partner passed me; `gapMetres` behind.
    case leadLost(gapMetres: Double)
    case partnerPaused
    case partnerResumed
    case partnerSplit(number: Int, seconds: Double)
    case partnerFinished(elapsedSeconds: Double, distanceMetres: Double)
    case partnerAbandoned
    /// No figures from the partner for `RaceSettings.lostAfter` while they were not paused.
    case partnerLost
    case partnerBack
}
