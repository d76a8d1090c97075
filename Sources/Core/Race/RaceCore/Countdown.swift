/// The spoken countdown to a race's start: "starting in 30 seconds", 10, 5, 4, 3, 2, 1, "go", each
/// said once when its instant passes on the monotonic clock. A point already past when the
/// countdown begins is not said late; "go" always is, with how late it came.
public struct Countdown: Sendable, Equatable {
    public enum Call: Sendable, Equatable {
        /// Seconds left to the start.
        case startingIn(Int)
        /// The start: `late` seconds after the agreed instant (0 when on time).
        case go(late: Double)
    }

    public static let points = [30, 10, 5, 4, 3, 2, 1]

    /// The start, on the monotonic clock.
    public private(set) var start: Double
    private var next: Int
    private var done = false

    /// Begins at `now`: points already past are skipped.
    public init(start: Double, now: Double) {
        self.start = start
        next = Self.points.firstIndex { start - Double($0) >= now } ?? Self.points.count
    }

    /// The calls due by `now`, in order; after "go", nothing.
    public mutating func tick(now: Double) -> [Call] {
        guard !done else { return [] }
        var calls: [Call] = []
        while next < Self.points.count, now >= start - Double(Self.points[next]) {
            calls.append(.startingIn(Self.points[next]))
            next += 1
        }
        if now >= start {
            done = true
            // Points passed in the same tick as the start are not worth saying any more.
            calls.removeAll()
            calls.append(.go(late: now - start))
        }
        return calls
    }

    public var finished: Bool { done }

    /// The clock's estimate of the instant moved (more GPS time learnt): count to the new one.
    public mutating func retarget(start: Double) {
        if !done { self.start = start }
    }

    /// The monotonic instant of the next call (the start itself once the points are said).
    public var nextCallAt: Double? {
        guard !done else { return nil }
        return next < Self.points.count ? start - Double(Self.points[next]) : start
    }
}
