/// At most one journal line per client per `interval` for what a client does wrong (bad lines,
/// oversized requests, a full socket): a local user cannot flood the journal; what was held back
/// is counted and said with the next line. Pure: time and the client are inputs.
public struct WarningBudget: Sendable {
    public let interval: Double
    private var clients: [UInt32: (said: Double, held: Int)] = [:]
    public private(set) var suppressed = 0

    public init(interval: Double = 60) {
        self.interval = interval
    }

    /// nil: hold this one back; else say it, with how many were held back before it.
    public mutating func allow(_ client: UInt32, at now: Double) -> Int? {
        // Forget clients quiet for a whole interval: the table stays as small as the set of users.
        if clients.count > 64 { clients = clients.filter { now - $0.value.said < interval } }
        if let last = clients[client], now - last.said < interval {
            clients[client]?.held += 1
            suppressed += 1
            return nil
        }
        let held = clients[client]?.held ?? 0
        clients[client] = (now, 0)
        return held
    }
}
