/// Replies by command id, so that a repeated command is answered again and never applied twice.
///
/// Bounded: the oldest replies go first. The store keeps every reply for ids older than this.
public struct CommandLedger: Sendable {
    private var replies: [String: CommandReply] = [:]
    private var order: [String] = []
    private var head = 0
    public let capacity: Int

    public init(capacity: Int = 1024) {
        precondition(capacity > 0)
        self.capacity = capacity
    }

    public func reply(for id: String) -> CommandReply? { replies[id] }

    public mutating func record(_ reply: CommandReply) {
        guard replies.updateValue(reply, forKey: reply.commandID) == nil else { return }
        order.append(reply.commandID)
        if order.count - head > capacity {
            replies[order[head]] = nil
            head += 1
            if head > capacity {
                order.removeFirst(head)
                head = 0
            }
        }
    }
}
