/// What the session logic produced for one input: rows for the log and news for the sinks. A
/// buffer the engine reuses, so that a fix costs no allocation of its own.
public struct SessionOutput: Sendable {
    public var rows: [SessionRow] = []
    public var announcements: [Announcement] = []

    public init() {}

    public var isEmpty: Bool { rows.isEmpty && announcements.isEmpty }

    public mutating func removeAll() {
        rows.removeAll(keepingCapacity: true)
        announcements.removeAll(keepingCapacity: true)
    }
}
