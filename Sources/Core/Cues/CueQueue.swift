/// Cues waiting to be spoken, and the one being spoken: one at a time, never two at once.
///
/// The next cue is the most urgent (then the oldest); a waiting cue past its freshness is dropped
/// rather than spoken late; a newer cue on the same topic replaces a waiting one; the end of a
/// session drops its waiting splits, zones and summaries; past `capacity`
/// the least urgent, oldest cue goes. Every cue that is not spoken comes back as `Dropped`.
public struct CueQueue: Sendable {
    public enum DropReason: String, Sendable, Codable {
        /// Waited longer than its freshness.
        case stale
        /// A newer cue on the same topic came.
        case replaced
        /// The session ended first: its closing cue sums it up.
        case superseded
        /// The queue was full.
        case overflow
        /// The sound output failed (no server, killed mid-cue, no device).
        case unavailable
        /// The daemon stopped before it was spoken.
        case shutdown
    }

    public struct Dropped: Sendable, Equatable {
        public var cue: Cue
        public var reason: DropReason
    }

    public let capacity: Int
    public private(set) var waiting: [Cue] = []
    public private(set) var speaking: Cue?

    public init(capacity: Int = 8) {
        precondition(capacity > 0, "a cue queue holds at least one cue")
        self.capacity = capacity
    }

    public var isEmpty: Bool { waiting.isEmpty && speaking == nil }

    /// Adds a cue; what it replaced or pushed out.
    public mutating func add(_ cue: Cue) -> [Dropped] {
        var dropped: [Dropped] = []
        if let index = waiting.firstIndex(where: { $0.kind.topic == cue.kind.topic }) {
            dropped.append(Dropped(cue: waiting.remove(at: index), reason: .replaced))
        }
        if cue.kind == .sessionEnded {
            // A split or a summary after "session ended" is old news.
            waiting.removeAll { waiting in
                guard waiting.priority > .urgent else { return false }
                dropped.append(Dropped(cue: waiting, reason: .superseded))
                return true
            }
        }
        waiting.append(cue)
        if waiting.count > capacity, let index = leastWorth() {
            dropped.append(Dropped(cue: waiting.remove(at: index), reason: .overflow))
        }
        return dropped
    }

    /// The cue to speak now (none while one is being spoken), and the stale ones dropped on the way.
    public mutating func next(at now: Double) -> (cue: Cue?, dropped: [Dropped]) {
        guard speaking == nil else { return (nil, []) }
        var dropped: [Dropped] = []
        waiting.removeAll { cue in
            guard cue.isStale(at: now) else { return false }
            dropped.append(Dropped(cue: cue, reason: .stale))
            return true
        }
        guard let index = mostUrgent() else { return (nil, dropped) }
        let cue = waiting.remove(at: index)
        speaking = cue
        return (cue, dropped)
    }

    /// The cue being spoken has ended (heard or failed): the next may start.
    public mutating func finished() {
        speaking = nil
    }

    /// Everything still waiting, for a shutdown.
    public mutating func drain() -> [Dropped] {
        defer { waiting.removeAll() }
        return waiting.map { Dropped(cue: $0, reason: .shutdown) }
    }

    private func mostUrgent() -> Int? {
        waiting.indices.min { a, b in
            (waiting[a].priority, waiting[a].dueAt) < (waiting[b].priority, waiting[b].dueAt)
        }
    }

    private func leastWorth() -> Int? {
        waiting.indices.max { a, b in
            // Least urgent first; among equals the oldest goes.
            (waiting[a].priority, -waiting[a].dueAt) < (waiting[b].priority, -waiting[b].dueAt)
        }
    }
}
