/// What a sink hears from the engine, in order: the session's events, and (for sinks that asked)
/// its live reading once a tick.
public enum SessionNews: Sendable, Equatable {
    case announcement(Announcement)
    case reading(LiveReading)
}
