/// One wearable's stream as the phone's core sees it: the hello that opens it, every envelope's
/// verdict against the inbox's marks, what is acknowledged, and when the link's last-seen time is
/// written. Pure: `PhoneCore` holds one per open stream and turns its verdicts into actions
/// (commit, then ack).
public struct PhoneStream: Sendable, Equatable {
    /// Why a stream is refused at its start.
    public enum Refusal: Error, Sendable, Equatable {
        /// The hello's outbox epoch is empty or longer than `maxEpochBytes`.
        case badEpoch
    }

    /// What to do with one envelope. Every envelope is acknowledged afterwards with `ack`, so a
    /// wearable that resends what was stored hears the mark again.
    public enum Verdict: Sendable, Equatable {
        /// Commit it (with its mark, in one transaction), then call `committed` and acknowledge.
        /// `unknownKind`: a payload this phone cannot read (a newer wearable), stored as it came.
        case store(unknownKind: Bool)
        /// At or below the mark: a resend; counted as a duplicate, nothing stored.
        case duplicate
        /// A snapshot older than the one held: nothing stored.
        case staleSnapshot
        /// Refused, nothing stored, the mark unmoved: no seq or class, or beyond the wearable's head.
        case invalid(String)
        /// A snapshot no runner could send: not stored, but acknowledged past (its seq is spent).
        case impossible(String)
    }

    public static let maxEpochBytes = 64
    /// The link's last-seen time is written at most this often (s).
    public static let seenEvery = 1.0

    public let epoch: String
    public private(set) var mark: InboxMark
    private var lastSeen = -Double.infinity

    /// Opens a stream from the hello's outbox epoch and head, with the marks the inbox holds for
    /// that wearable and epoch.
    public init(epoch: String, head: Int, stored: InboxMark) throws(Refusal) {
        guard Self.accepts(epoch: epoch) else { throw .badEpoch }
        self.epoch = epoch
        mark = stored
        mark.head = head
    }

    /// An outbox epoch a stream may open with: not empty, at most `maxEpochBytes`.
    public static func accepts(epoch: String) -> Bool { !epoch.isEmpty && epoch.utf8.count <= maxEpochBytes }

    /// The wearable's outbox is behind the inbox's mark: its log was restored from an older copy.
    public var behindMark: Bool { mark.mark > mark.head }

    /// What a welcome and an acknowledgement carry: the mark and the newest snapshot's seq.
    public var ack: (through: Int, snapshot: Int) { (mark.mark, mark.snapshot) }

    /// A message arrived at `now`: true when the link's last-seen time is to be written.
    public mutating func heard(at now: Double) -> Bool {
        guard now - lastSeen >= Self.seenEvery else { return false }
        lastSeen = now
        return true
    }

    /// The verdict on an envelope: its seq, whether its class is a snapshot (nil: no class this
    /// phone knows), what makes a snapshot impossible (nil when nothing does), and whether its
    /// payload is of a kind this phone knows.
    public mutating func envelope(seq: Int, isSnapshot: Bool?, impossibility: String?, knownKind: Bool) -> Verdict {
        guard seq > 0, let isSnapshot else { return .invalid("no seq or class") }
        switch mark.judge(seq: seq, isSnapshot: isSnapshot) {
        case .duplicate: return .duplicate
        case .staleSnapshot: return .staleSnapshot
        case .beyondHead(let head): return .invalid("beyond the wearable's head \(head)")
        case .store: break
        }
        if isSnapshot, let impossibility {
            mark.committed(seq: seq, isSnapshot: true)
            return .impossible(impossibility)
        }
        return .store(unknownKind: !knownKind)
    }

    /// The envelope's transaction committed (or found it already stored).
    public mutating func committed(seq: Int, isSnapshot: Bool) {
        mark.committed(seq: seq, isSnapshot: isSnapshot)
    }
}
