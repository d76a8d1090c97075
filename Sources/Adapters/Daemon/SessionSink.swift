import SessionCore

/// Something that listens to what a session does (the journal, the audio cues). Each sink gets
/// every announcement in order (and the live readings, when the engine makes them), on a task of
/// its own, behind a buffer of `capacity`: a sink that falls that far behind loses the oldest
/// (counted and logged), and never holds up the engine or the writer.
public protocol SessionSink: Sendable {
    var name: String { get }
    var capacity: Int { get }
    /// Takes one piece of news; may take its time. Must return when its task is cancelled (the
    /// daemon gives sinks a moment to drain at shutdown, then cancels them).
    func consume(_ news: SessionNews) async
}
