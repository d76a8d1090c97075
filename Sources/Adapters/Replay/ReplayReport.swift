import TrackCore

/// What replaying one recording gave: the core's summary and how the input itself fared.
public struct ReplayReport: Sendable {
    public var file: String
    public var summary: SessionSummary
    /// Lines read, blank ones included, so that line numbers in diagnostics match an editor's.
    public var lines: Int
    public var malformedLines: Int
    /// TPVs folded into an earlier report of the same epoch.
    public var mergedReports: Int
    /// Reports seen per gpsd class.
    public var messages: [String: Int]
    /// What the core concluded about the receiver's own error fields and noise.
    public var receiver: ReceiverJudgement
}

/// A recording that could not be read at all (as opposed to lines that could not be decoded).
public struct ReplayError: Error, Sendable, CustomStringConvertible {
    public var file: String
    public var reason: String

    public var description: String { "\(file): \(reason)" }
}
