import Cues
import SessionCore
import Synchronization

/// The cue rules and the cue queue, shared by the sink that feeds them (on the fan-out's task)
/// and the speaker that empties the queue (on its own): a lock around two pure values.
final class CueSchedule: Sendable {
    private struct State {
        var rules: CueRules
        var queue: CueQueue
    }

    private let state: Mutex<State>
    private let wakeUp: AsyncStream<Void>.Continuation
    /// Fires when a cue was queued.
    let wakes: AsyncStream<Void>

    init(settings: CueSettings, capacity: Int = 8) {
        state = Mutex(State(rules: CueRules(settings: settings), queue: CueQueue(capacity: capacity)))
        (wakes, wakeUp) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// Takes news at `now`; the cues it pushed out of the queue (replaced, overflow).
    func take(_ news: SessionNews, now: Double) -> [CueQueue.Dropped] {
        let (queued, dropped) = state.withLock { state in
            var dropped: [CueQueue.Dropped] = []
            let cues = state.rules.take(news, now: now)
            for cue in cues { dropped += state.queue.add(cue) }
            return (!cues.isEmpty, dropped)
        }
        if queued { wakeUp.yield() }
        return dropped
    }

    /// Queues a cue made outside the rules (`say`).
    func add(_ cue: Cue) -> [CueQueue.Dropped] {
        defer { wakeUp.yield() }
        return state.withLock { $0.queue.add(cue) }
    }

    /// The next cue to speak at `now`, if none is being spoken, and the stale ones dropped.
    func next(at now: Double) -> (cue: Cue?, dropped: [CueQueue.Dropped]) {
        state.withLock { $0.queue.next(at: now) }
    }

    func finished() {
        state.withLock { $0.queue.finished() }
    }

    /// What is still waiting, at shutdown.
    func drain() -> [CueQueue.Dropped] {
        state.withLock { $0.queue.drain() }
    }

    func close() {
        wakeUp.finish()
    }
}
