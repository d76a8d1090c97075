import Synchronization

/// What the server refused or ignored, counted (and logged where it happened).
public final class PhoneCounters: Sendable {
    let duplicates = Atomic<Int>(0)
    let invalid = Atomic<Int>(0)
    let unknown = Atomic<Int>(0)
    let stored = Atomic<Int>(0)

    public init() {}

    public var summary: [String: Int] {
        [
            "stored": stored.load(ordering: .relaxed), "duplicates": duplicates.load(ordering: .relaxed),
            "invalid": invalid.load(ordering: .relaxed), "unknown": unknown.load(ordering: .relaxed),
        ]
    }
}
