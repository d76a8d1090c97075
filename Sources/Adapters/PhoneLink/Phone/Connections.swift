import PhoneLinkContract
import Synchronization

/// The wearables connected now, each with the queue its stream writes from: commands go to a
/// wearable through here. A newer connection of the same wearable replaces the older one.
final class Connections: Sendable {
    typealias Outgoing = AsyncStream<Wearbridge_Link_V1_PhoneMessage>.Continuation

    private struct Entry {
        var id: Int
        var outgoing: Outgoing
    }

    private let entries = Mutex<(next: Int, map: [String: Entry])>((1, [:]))

    /// Registers a connection; returns its id for `detach`.
    func attach(_ wearable: String, _ outgoing: Outgoing) -> Int {
        let (id, replaced) = entries.withLock { state in
            let id = state.next
            state.next += 1
            let old = state.map[wearable]?.outgoing
            state.map[wearable] = Entry(id: id, outgoing: outgoing)
            return (id, old)
        }
        replaced?.finish()
        return id
    }

    func detach(_ wearable: String, id: Int) {
        entries.withLock { state in
            if state.map[wearable]?.id == id { state.map[wearable] = nil }
        }
    }

    func isConnected(_ wearable: String) -> Bool { entries.withLock { $0.map[wearable] != nil } }

    /// False when the wearable is not connected.
    @discardableResult
    func send(_ message: Wearbridge_Link_V1_PhoneMessage, to wearable: String) -> Bool {
        guard let outgoing = entries.withLock({ $0.map[wearable]?.outgoing }) else { return false }
        if case .enqueued = outgoing.yield(message) { return true }
        return false
    }
}
