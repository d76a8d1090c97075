/// Why a commit failed, as the core needs to know it: a full disk is waited out, and every kind
/// is named to whoever asked for something durable.
public struct StorageFailure: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable {
        /// No space left (SQLITE_FULL, ENOSPC).
        case full
        /// The card or disk failed a read or write (SQLITE_IOERR).
        case io
        case other
    }

    public var kind: Kind
    /// What SQLite or the system said, with the file.
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String {
        switch kind {
        case .full: "storage full: \(message)"
        case .io: "storage I/O error: \(message)"
        case .other: "storage error: \(message)"
        }
    }
}

/// What could not be kept while storage failed, by kind.
public struct DropCounts: Sendable, Equatable {
    public var fixes = 0
    public var beats = 0
    public var events = 0

    public init(fixes: Int = 0, beats: Int = 0, events: Int = 0) {
        self.fixes = fixes
        self.beats = beats
        self.events = events
    }

    public var total: Int { fixes + beats + events }

    public mutating func count(_ retention: SessionRow.Retention, _ number: Int = 1) {
        switch retention {
        case .fix: fixes += number
        case .beat: beats += number
        case .notice, .critical: events += number
        }
    }
}
