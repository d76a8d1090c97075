import Synchronization

/// What the pump did, for its log line at shutdown and for `race status`.
public final class RelayCounters: Sendable {
    public let posted = Counter()
    public let resent = Counter()
    public let refused = Counter()
    public let pulled = Counter()

    public init() {}

    public final class Counter: Sendable {
        private let value = Atomic<Int>(0)

        public init() {}

        public func add(_ count: Int) {
            value.add(count, ordering: .relaxed)
        }

        public var count: Int { value.load(ordering: .relaxed) }
    }
}

/// Set once the relay accepted the connection, so the reconnect loop resets its backoff.
final class ConnectedFlag: Sendable {
    private let flag = Atomic<Bool>(false)

    func set() { flag.store(true, ordering: .relaxed) }

    var isSet: Bool { flag.load(ordering: .relaxed) }
}
