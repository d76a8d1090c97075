import Synchronization

/// Set once graceful shutdown begins: open streams end at their next wake instead of holding the
/// server (and the phone's exit) open.
final class ShutdownFlag: Sendable {
    private let value = Atomic<Bool>(false)
    var isSet: Bool { value.load(ordering: .acquiring) }
    func set() { value.store(true, ordering: .releasing) }
}
