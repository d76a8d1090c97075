/// The phone's side of delivery for one wearable and outbox epoch: which envelopes are new,
/// which are resends, and what to acknowledge. Exactly once, in order, follows from taking only
/// critical and notice envelopes above the mark, and moving the mark only with a commit.
public struct InboxMark: Sendable, Equatable {
    public enum Verdict: Sendable, Equatable {
        /// New: store it (and move the mark to its seq in the same transaction), then ack.
        case store
        /// At or below the mark: already committed; ack again, store nothing.
        case duplicate
        /// A snapshot older than the one held: ignore.
        case staleSnapshot
        /// Beyond what the wearable said it ever wrote: refuse, store nothing.
        case beyondHead(head: Int)
    }

    public private(set) var mark: Int
    public private(set) var snapshot: Int
    /// The wearable's outbox head from its hello.
    public var head: Int

    public init(mark: Int, snapshot: Int, head: Int) {
        self.mark = mark
        self.snapshot = snapshot
        self.head = head
    }

    public func judge(seq: Int, isSnapshot: Bool) -> Verdict {
        // The head in a hello can trail: messages committed since count too, so only a seq far
        // beyond anything plausible is judged here; the caller raises `head` as envelopes arrive.
        if seq <= 0 { return .beyondHead(head: head) }
        if isSnapshot { return seq > snapshot ? .store : .staleSnapshot }
        return seq > mark ? .store : .duplicate
    }

    /// The envelope's transaction committed.
    public mutating func committed(seq: Int, isSnapshot: Bool) {
        if isSnapshot {
            snapshot = max(snapshot, seq)
        } else {
            mark = max(mark, seq)
        }
    }
}
