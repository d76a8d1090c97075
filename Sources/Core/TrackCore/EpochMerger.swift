/// Merges the several TPVs gpsd sends for one epoch into one fix.
///
/// gpsd reports an epoch as each sentence of it arrives: the first TPV may carry a position and a
/// stale `speed: 0`, a later one the `epx`/`epy`/`eps` that say how far to trust them. Using only the
/// first would throw that away, so an epoch is held until the next one starts (or `flush`), with
/// later fields filling and overriding earlier ones. The cost is one epoch of latency.
public struct EpochMerger: Sendable {
    private var pending: Fix?
    /// Reports folded into an earlier one of the same epoch.
    public private(set) var mergedCount = 0
    private let epochTolerance = 0.001

    public init() {}

    /// Adds a report; `emit` receives every fix that is now complete, in order.
    public mutating func add(_ fix: Fix, emit: (Fix) -> Void) {
        guard let time = fix.time else {
            if let pending { emit(pending) }
            pending = nil
            emit(fix)
            return
        }
        if var current = pending, let currentTime = current.time, abs(time.since(currentTime)) < epochTolerance {
            current.absorb(fix)
            pending = current
            mergedCount += 1
            return
        }
        if let pending { emit(pending) }
        pending = fix
    }

    /// The epoch still held, once no more reports for it can come.
    public mutating func flush() -> Fix? {
        defer { pending = nil }
        return pending
    }
}

extension Fix {
    /// Takes what a later report of the same epoch knows; keeps the first receive instant.
    mutating func absorb(_ later: Fix) {
        mode = max(mode, later.mode)
        position = later.position ?? position
        errorEast = later.errorEast ?? errorEast
        errorNorth = later.errorNorth ?? errorNorth
        horizontalError = later.horizontalError ?? horizontalError
        speed = later.speed ?? speed
        track = later.track ?? track
        speedError = later.speedError ?? speedError
        receivedAt = receivedAt ?? later.receivedAt
    }
}
