/// A cue the rules decided on: what it says, what caused it and until when it is worth saying.
public struct Cue: Sendable, Equatable {
    public var message: CueMessage
    /// Monotonic instant of its cause (the fix, beat or command): the delay is measured from here.
    public var causedAt: Double
    /// When the rules decided on it (after a dwell, later than its cause): freshness counts from here.
    public var dueAt: Double
    /// Seconds it may wait before it is stale and dropped.
    public var freshness: Double

    public init(_ message: CueMessage, causedAt: Double, dueAt: Double? = nil, freshness: Double) {
        self.message = message
        self.causedAt = causedAt
        self.dueAt = dueAt ?? causedAt
        self.freshness = freshness
    }

    public var kind: CueKind { message.kind }
    public var priority: CuePriority { message.kind.priority }

    public func isStale(at now: Double) -> Bool { now - dueAt > freshness }
}
