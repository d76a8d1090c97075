import Cues
import ProcessClock
import SessionCore

/// The engine's news into the cue rules: cheap (a lock and a pure step), so it never falls
/// behind; the speaking happens on `CueSpeaker`'s task.
struct CueSink: SessionSink {
    let name = "cues"
    let capacity = 256
    let schedule: CueSchedule
    /// Where a dropped cue is reported (the engine logs it as `cue_dropped`).
    let report: @Sendable (CueOutcome) -> Void
    let catalog: CueCatalog
    let units: UnitSystem

    func consume(_ news: SessionNews) async {
        // The cue events the speaker reports come back as news: not cues themselves.
        if case .announcement(let announcement) = news, case .cue = announcement.event { return }
        for dropped in schedule.take(news, now: MonotonicClock.now()) {
            report(dropped.outcome(catalog, units))
        }
    }
}

extension CueQueue.Dropped {
    /// As the data log stores it.
    func outcome(_ catalog: CueCatalog, _ units: UnitSystem) -> CueOutcome {
        .dropped(kind: cue.kind.rawValue, text: catalog.text(cue.message, units: units), reason: reason.rawValue)
    }
}
