/// What became of an audio cue, reported by the cue player so that a field test can be reviewed
/// from the data log: spoken (with the delay from its cause) or dropped (with why).
public enum CueOutcome: Sendable, Equatable {
    /// `delay`: seconds from the cause (a fix, a command, a beat) to the first sample handed to
    /// the sound output; `synthesis`: seconds spent rendering it; `audio`: its length (s);
    /// `underruns`: times the output ran dry while playing it (the wearer heard it stutter);
    /// `playing`: seconds from the player's launch to its end (longer than `audio` by its start-up,
    /// and by any stall of the player or the device).
    case spoken(
        kind: String,
        text: String,
        delay: Double,
        synthesis: Double,
        audio: Double,
        underruns: Int = 0,
        playing: Double = 0
    )
    case dropped(kind: String, text: String, reason: String)
}
