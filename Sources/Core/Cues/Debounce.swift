/// A two-state condition (paused, strap lost, link lost) spoken only once it has held for a
/// dwell: a change that flips back within the dwell is never spoken, and the spoken states
/// always alternate.
struct Debounce: Sendable, Equatable {
    /// The state last spoken (false: the normal one).
    private(set) var spoken = false
    private var pending: (state: Bool, since: Double, causedAt: Double)?

    mutating func set(_ state: Bool, at now: Double, causedAt: Double) {
        if state == spoken {
            pending = nil
        } else if pending?.state != state {
            pending = (state, now, causedAt)
        }
    }

    /// The state to speak now, with its cause, once it has held for `dwell`.
    mutating func due(at now: Double, dwell: Double) -> (state: Bool, causedAt: Double, dueAt: Double)? {
        guard let pending, now - pending.since >= dwell else { return nil }
        spoken = pending.state
        self.pending = nil
        return (pending.state, pending.causedAt, pending.since + dwell)
    }

    static func == (lhs: Debounce, rhs: Debounce) -> Bool {
        lhs.spoken == rhs.spoken && lhs.pending?.state == rhs.pending?.state && lhs.pending?.since == rhs.pending?.since
    }
}
