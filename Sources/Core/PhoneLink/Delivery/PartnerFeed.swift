/// Which of a race partner's snapshots one connected wearable is handed: each run's newer ones only,
/// read again only when the relay brought something (the store's partner version moved). Not
/// durable: a new connection starts a new feed, so a reconnected wearable gets the newest at once.
public struct PartnerFeed: Sendable, Equatable {
    /// The newest snapshot seq handed on, per run.
    private var sent: [String: Int64] = [:]
    private var version: Int?

    public init() {}

    /// Whether the partner figures must be read: first, and whenever `version` moved.
    public mutating func needsReading(version: Int) -> Bool {
        guard version != self.version else { return false }
        self.version = version
        return true
    }

    /// The snapshots (run, seq) to hand on, in the order given: each newer than its run's last.
    public mutating func fresh(_ snapshots: [(run: String, seq: Int64)]) -> [Int] {
        var handed: [Int] = []
        for (index, snapshot) in snapshots.enumerated() where snapshot.seq > sent[snapshot.run, default: 0] {
            sent[snapshot.run] = snapshot.seq
            handed.append(index)
        }
        return handed
    }
}
