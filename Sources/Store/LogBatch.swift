import TrackCore

/// What one commit writes: the controller's actions since the last batch and the live figures.
public struct LogBatch: Sendable {
    public var actions: [SessionAction]
    /// The open session's figures now, so that `sessions` shows a running session as it stands.
    public var live: (sessionID: String, summary: SessionSummary)?

    public init(actions: [SessionAction] = [], live: (sessionID: String, summary: SessionSummary)? = nil) {
        self.actions = actions
        self.live = live
    }

    public var isEmpty: Bool { actions.isEmpty && live == nil }
}
