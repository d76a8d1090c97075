import Synchronization

/// Set once from any thread (task cancellation), read by a blocking loop between its waits.
public final class StopFlag: Sendable {
    private let value = Atomic<Bool>(false)

    public init() {}

    public func set() { value.store(true, ordering: .releasing) }

    public var isSet: Bool { value.load(ordering: .acquiring) }
}
