import Synchronization

/// Set once from any thread (task cancellation), read by a blocking loop between its waits; a wait
/// that cannot poll (a call to bluetoothd) registers what ends it early.
public final class StopFlag: Sendable {
    private let value = Atomic<Bool>(false)
    private let hooks = Mutex<[@Sendable () -> Void]>([])

    public init() {}

    public func set() {
        value.store(true, ordering: .releasing)
        for hook in hooks.withLock({ $0 }) { hook() }
    }

    public var isSet: Bool { value.load(ordering: .acquiring) }

    /// Runs `body` when the flag is set (at once if it is already).
    public func onSet(_ body: @escaping @Sendable () -> Void) {
        hooks.withLock { $0.append(body) }
        if isSet { body() }
    }
}
