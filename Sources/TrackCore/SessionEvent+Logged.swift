extension SessionEvent {
    /// The core's event as the data log names and details it.
    public var logged: LoggedEvent {
        switch self {
        case .autoPaused(let at):
            LoggedEvent(kind: "auto_paused", time: at)
        case .autoResumed(let at, let pausedFor):
            LoggedEvent(kind: "auto_resumed", time: at, detail: ["paused_s": .number(pausedFor)])
        case .split(let split):
            LoggedEvent(
                kind: "split",
                detail: [
                    "index": .number(Double(split.index)), "distance_m": .number(split.distance),
                    "duration_s": .number(split.duration), "end_timer_s": .number(split.endTimer),
                ]
            )
        case .gpsLost(let lastFix):
            LoggedEvent(kind: "gps_lost", time: lastFix)
        case .gpsRegained(let at, let after):
            LoggedEvent(kind: "gps_regained", time: at, detail: ["after_s": .number(after)])
        case .gapBridged(let from, let to, let distance):
            LoggedEvent(
                kind: "gap_bridged",
                time: to,
                detail: [
                    "from": .number(from.seconds), "duration_s": .number(to.since(from)),
                    "distance_m": .number(distance),
                ]
            )
        case .timelineReset(let at):
            LoggedEvent(kind: "timeline_reset", time: at)
        case .filterReset(let at):
            LoggedEvent(kind: "filter_reset", time: at)
        }
    }
}
