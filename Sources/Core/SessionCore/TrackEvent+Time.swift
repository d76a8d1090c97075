import TrackCore

extension TrackEvent {
    /// The GPS time the event refers to, as the log dates it (a split carries none of its own).
    var time: GPSTime? {
        switch self {
        case .autoPaused(let at), .autoResumed(let at, _), .gpsRegained(let at, _), .timelineReset(let at),
            .filterReset(let at):
            at
        case .gpsLost(let lastFix): lastFix
        case .gapBridged(_, let to, _): to
        case .split: nil
        }
    }
}
