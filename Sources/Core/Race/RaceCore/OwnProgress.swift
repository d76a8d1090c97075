/// My distance at each elapsed second since the common start, kept for a while, so that a partner
/// snapshot that arrives late is compared with where I was at *their* elapsed time, not at its arrival.
struct OwnProgress: Sendable, Equatable {
    private(set) var samples: [(elapsed: Double, distance: Double)] = []
    let keep: Double

    init(keep: Double) {
        self.keep = keep
    }

    static func == (left: OwnProgress, right: OwnProgress) -> Bool {
        left.keep == right.keep && left.samples.elementsEqual(right.samples) { $0 == $1 }
    }

    /// Adds a sample; one out of order (older than the newest) is ignored.
    mutating func record(elapsed: Double, distance: Double) {
        if let last = samples.last, elapsed <= last.elapsed { return }
        samples.append((elapsed, distance))
        let cutoff = elapsed - keep
        if let first = samples.firstIndex(where: { $0.elapsed >= cutoff }), first > 0 {
            samples.removeFirst(first)
        }
    }

    /// My distance at `elapsed`, interpolated; clamped to the oldest and newest sample kept.
    func distance(at elapsed: Double) -> Double? {
        guard let first = samples.first, let last = samples.last else { return nil }
        if elapsed <= first.elapsed { return first.distance }
        if elapsed >= last.elapsed { return last.distance }
        var low = 0
        var high = samples.count - 1
        while high - low > 1 {
            let middle = (low + high) / 2
            if samples[middle].elapsed <= elapsed { low = middle } else { high = middle }
        }
        let a = samples[low]
        let b = samples[high]
        return a.distance + (b.distance - a.distance) * (elapsed - a.elapsed) / (b.elapsed - a.elapsed)
    }
}
