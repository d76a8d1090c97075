/// What an event in a backfilled session says about pausing, read from its kind as the wearable's
/// data log names it (the `kind` column, an on-disk format that never changes): the one place the
/// dashboard reads those names.
public enum PauseTransition: Sendable, Equatable {
    case pauses
    case resumes

    /// nil: the event does not change whether the track is paused.
    public init?(storedKind: String) {
        switch storedKind {
        case "paused", "auto_paused": self = .pauses
        case "resumed", "auto_resumed", "session_started": self = .resumes
        default: return nil
        }
    }
}
