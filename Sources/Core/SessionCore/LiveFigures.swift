import TrackCore

/// The open session's figures as they stand, so that `sessions` shows a running session.
public struct LiveFigures: Sendable, Equatable {
    public var sessionID: String
    public var summary: SessionSummary

    public init(sessionID: String, summary: SessionSummary) {
        self.sessionID = sessionID
        self.summary = summary
    }
}
