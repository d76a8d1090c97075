/// Capped exponential backoff with no give-up: gpsd may be down for a minute or a day.
///
/// Pure: it says how long to wait; the caller sleeps. A connection that delivered data resets it.
public struct ReconnectBackoff: Sendable, Equatable {
    public let initial: Double
    public let cap: Double
    public private(set) var failures = 0

    public init(initial: Double = 0.25, cap: Double = 15) {
        precondition(initial > 0 && cap >= initial)
        self.initial = initial
        self.cap = cap
    }

    /// The wait before the next attempt after one more failure.
    public mutating func nextDelay() -> Double {
        failures += 1
        let exponent = Double(min(failures - 1, 30))
        return min(cap, initial * pow2(exponent))
    }

    public mutating func reset() {
        failures = 0
    }

    /// Log the first failure loudly and then only now and then: forever, but quietly.
    public var shouldReport: Bool {
        failures == 1 || failures.isMultiple(of: 20)
    }

    private func pow2(_ exponent: Double) -> Double {
        var result = 1.0
        for _ in 0..<Int(exponent) { result *= 2 }
        return result
    }
}
