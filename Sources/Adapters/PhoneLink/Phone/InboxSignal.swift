import Synchronization

/// Wakes whoever follows the inbox (the dashboard's streams) after a commit, so a page hears of a
/// message as soon as it is durable, without polling the database.
public final class InboxSignal: Sendable {
    private let followers = Mutex<(next: Int, map: [Int: AsyncStream<Void>.Continuation])>((0, [:]))

    init() {}

    /// A stream that yields once after each commit (at most one wake pending); ends at `unfollow`.
    public func follow() -> (id: Int, wakes: AsyncStream<Void>) {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let id = followers.withLock { state in
            state.next += 1
            state.map[state.next] = continuation
            return state.next
        }
        return (id, stream)
    }

    public func unfollow(_ id: Int) {
        followers.withLock { $0.map.removeValue(forKey: id) }?.finish()
    }

    /// Wakes every follower (also used at shutdown, so streams notice it at once).
    public func changed() {
        for continuation in followers.withLock({ Array($0.map.values) }) { continuation.yield() }
    }
}
