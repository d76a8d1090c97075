import CueAudio
import Cues
import Logging
import ProcessClock
import SessionCore

/// Speaks the queued cues one at a time, each to its end, and reports every one spoken or
/// dropped to the engine (a session event). A source: cancelled at shutdown, which stops the
/// cue being played.
///
/// A sound output that fails costs only its cue: the next cue tries afresh. The failure is
/// logged once per outage, the cues it cost are counted, and the end of the outage is logged.
struct CueSpeaker: EngineProducer {
    let name = "cues"
    let role = EngineProducerRole.source
    let schedule: CueSchedule
    let voice: CueVoice
    let catalog: CueCatalog
    let units: UnitSystem
    let logger: Logger

    func run(into inbox: EngineInbox) async {
        var missed = 0
        var wakes = schedule.wakes.makeAsyncIterator()
        while !Task.isCancelled {
            let (cue, stale) = schedule.next(at: MonotonicClock.now())
            for dropped in stale { inbox.send(.cue(dropped.outcome(catalog, units))) }
            guard let cue else {
                // Idle: nothing waits (a waiting cue is taken at once), so sleep until one is queued.
                _ = await wakes.next()
                continue
            }
            let text = catalog.text(cue.message, units: units)
            do {
                let spoken = try await voice.speak(text, name: "wearbridge \(cue.kind.rawValue)")
                if spoken.underruns > 0 {
                    logger.warning(
                        "a cue stuttered: the sound output ran dry while it played (the system too busy?)",
                        metadata: ["cue": "\(cue.kind.rawValue)", "underruns": "\(spoken.underruns)"]
                    )
                }
                if missed > 0 {
                    logger.notice("cues are heard again", metadata: ["missed": "\(missed)"])
                    missed = 0
                }
                inbox.send(
                    .cue(
                        .spoken(
                            kind: cue.kind.rawValue,
                            text: text,
                            delay: max(0, spoken.startedAt - cue.causedAt),
                            synthesis: spoken.synthesis,
                            audio: spoken.audio,
                            underruns: spoken.underruns,
                            playing: spoken.playing
                        ),
                        at: spoken.startedAt + spoken.playing
                    )
                )
            } catch {
                let reason = (error as? SoundError)?.reason ?? "synthesis_failed"
                if Task.isCancelled {
                    inbox.send(.cue(.dropped(kind: cue.kind.rawValue, text: text, reason: "shutdown")))
                    break
                }
                if missed == 0 {
                    logger.error(
                        "cannot play cues: counted and dropped until the sound output works again",
                        metadata: [
                            "error": "\(error)", "cue": "\(cue.kind.rawValue)", "route": "\(voice.output.route)",
                        ]
                    )
                }
                missed += 1
                inbox.send(.cue(.dropped(kind: cue.kind.rawValue, text: text, reason: reason)))
            }
            schedule.finished()
        }
        for dropped in schedule.drain() { inbox.send(.cue(dropped.outcome(catalog, units))) }
        if missed > 0 { logger.warning("cues not heard in the last outage", metadata: ["missed": "\(missed)"]) }
    }
}
