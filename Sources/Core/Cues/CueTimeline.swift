import SessionCore
import TrackCore

/// The cues a recorded session earns, in order, as `wearbridge cues` prints them: the session's
/// inputs (fixes, beats, commands) run through the session logic and the same rules and queue
/// the daemon uses, with the readings once a second of the inputs' own time. Speaking is
/// simulated (a cue lasts as long as its words take at `rate`), so the timeline is the same on
/// every run.
public struct CueTimeline {
    /// One cue and what became of it.
    public struct Entry: Sendable, Equatable {
        /// Seconds from the first input to when it was spoken (or dropped).
        public var at: Double
        public var kind: CueKind
        public var text: String
        /// nil when spoken; else why not.
        public var dropped: CueQueue.DropReason?
        /// Seconds from its cause to when it was spoken.
        public var delay: Double
    }

    public var settings: CueSettings
    public var catalog: CueCatalog
    public var units: UnitSystem
    /// Words per minute, for the length of each cue.
    public var rate: Int

    public init(settings: CueSettings, catalog: CueCatalog, units: UnitSystem, rate: Int = 175) {
        self.settings = settings
        self.catalog = catalog
        self.units = units
        self.rate = rate
    }

    /// Runs `inputs` (timed by their receive instants, GPS time for a gpsd recording) through a
    /// session: started by the first `start` command among them, or by the first good fix.
    public func run(
        _ inputs: [SessionController.JournalEntry],
        configuration: SessionController.Configuration
    ) -> [Entry] {
        var configuration = configuration
        let startsByCommand = inputs.contains { if case .command(.start, _) = $0 { true } else { false } }
        configuration.autostart = !startsByCommand
        var run = Run(
            timeline: self,
            controller: SessionController(configuration: configuration, ids: SessionIDGenerator(seed: 1)),
            rules: CueRules(settings: settings)
        )
        for input in inputs {
            // A command was logged between the inputs around it: it takes the time of the last one.
            guard let time = Self.time(of: input) ?? run.now else { continue }
            run.advance(to: time)
            var output = SessionOutput()
            switch input {
            case .fix(let fix): run.controller.ingest(fix, into: &output)
            case .heartRate(let sample):
                run.lastBeat = (sample.bpm, time)
                run.controller.heartRate(sample, into: &output)
            case .speed(let sample): run.controller.speed(sample, into: &output)
            case .pressure(let sample): run.controller.pressure(sample, into: &output)
            case .command(let command, let id):
                _ = run.controller.handle(command, id: id, receivedAt: time, systemTime: 0, into: &output)
            }
            run.take(output, at: time)
        }
        if let end = run.now, run.controller.session != nil {
            var output = SessionOutput()
            _ = run.controller.handle(.end, id: "timeline-end", receivedAt: end, systemTime: 0, into: &output)
            run.take(output, at: end)
        }
        run.finish()
        return run.entries
    }

    private static func time(of input: SessionController.JournalEntry) -> Double? {
        switch input {
        case .fix(let fix): fix.receivedAt ?? fix.time?.seconds
        case .heartRate(let sample): sample.receivedAt
        case .speed(let sample): sample.receivedAt
        case .pressure(let sample): sample.receivedAt
        case .command: nil
        }
    }

    /// Seconds `text` takes to say at `rate` words a minute (a number counts as two words).
    public func speakingTime(_ text: String) -> Double {
        let words = text.split(whereSeparator: { $0 == " " }).reduce(0.0) { sum, word in
            sum + (word.contains(where: \.isNumber) ? 2 : 1)
        }
        return words * 60 / Double(max(rate, 1)) + 0.4
    }

    /// The state of one run: the session, the rules, the queue and the simulated speaker.
    private struct Run {
        let timeline: CueTimeline
        var controller: SessionController
        var rules: CueRules
        var queue = CueQueue()
        var entries: [Entry] = []
        var first: Double?
        var now: Double?
        var nextReading: Double?
        var speakingUntil = -Double.infinity
        var lastBeat: (bpm: Int, at: Double)?

        /// Readings (and the silence ticks) once a second up to `time`.
        mutating func advance(to time: Double) {
            if first == nil { first = time }
            var next = nextReading ?? time
            while next <= time {
                var output = SessionOutput()
                controller.tick(receivedAt: next, into: &output)
                take(output, at: next)
                if let reading = reading(at: next) { hear(.reading(reading), at: next) }
                next += 1
            }
            nextReading = next
            now = time
        }

        mutating func take(_ output: SessionOutput, at time: Double) {
            for row in output.rows {
                guard case .finish(let id, let summary, _, _) = row else { continue }
                let reading = LiveReading(final: summary, sessionID: id, at: time)
                hear(.reading(reading), at: time)
            }
            for announcement in output.announcements { hear(.announcement(announcement), at: time) }
        }

        private func reading(at time: Double) -> LiveReading? {
            guard let session = controller.session else { return nil }
            let beat = lastBeat.flatMap { time - $0.at <= 5 ? $0.bpm : nil }
            return LiveReading(
                sessionID: session.id,
                state: session.track.isAutoPaused ? .paused(.auto) : controller.lifecycle.state,
                summary: session.track.summary,
                speed: session.track.currentSpeed ?? 0,
                heartRate: beat,
                at: time
            )
        }

        private mutating func hear(_ news: SessionNews, at time: Double) {
            for cue in rules.take(news, now: time) {
                for dropped in queue.add(cue) { record(dropped, at: time) }
            }
            speak(at: time)
        }

        /// The simulated speaker: the next cue starts once the last one has ended.
        private mutating func speak(at time: Double) {
            guard time >= speakingUntil else { return }
            queue.finished()
            let (cue, stale) = queue.next(at: time)
            for dropped in stale { record(dropped, at: time) }
            guard let cue else { return }
            let text = timeline.catalog.text(cue.message, units: timeline.units)
            speakingUntil = time + timeline.speakingTime(text)
            entries.append(
                Entry(at: time - (first ?? time), kind: cue.kind, text: text, dropped: nil, delay: time - cue.causedAt)
            )
        }

        private mutating func record(_ dropped: CueQueue.Dropped, at time: Double) {
            let text = timeline.catalog.text(dropped.cue.message, units: timeline.units)
            entries.append(
                Entry(at: time - (first ?? time), kind: dropped.cue.kind, text: text, dropped: dropped.reason, delay: 0)
            )
        }

        /// Speaks what is still waiting after the last input.
        mutating func finish() {
            var time = now ?? 0
            while !queue.waiting.isEmpty {
                time = max(time, speakingUntil)
                speak(at: time)
            }
        }
    }
}
