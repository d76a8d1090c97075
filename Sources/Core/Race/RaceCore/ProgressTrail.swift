/// A runner's whole race as marks of elapsed time and distance, thinned (a mark every few metres or
/// seconds), so that the moment they last stood where the other runner is now can be read back:
/// the gap in time, at the same point of the way, that runners compare themselves by.
struct ProgressTrail: Sendable, Equatable {
    /// Distances never fall: a distance less than one already marked is held at it.
    private(set) var marks: [(elapsed: Double, distance: Double)] = []
    /// The newest sample, not yet far enough from the last mark to be one.
    private(set) var tip: (elapsed: Double, distance: Double)?
    /// A mark at least this far (m) or this long (s) after the last: a stand keeps its length.
    private let spacing = 5.0
    private let interval = 5.0
    /// Beyond this many marks every other is dropped (a marathon is under 9000).
    private let capacity = 20_000

    static func == (left: ProgressTrail, right: ProgressTrail) -> Bool {
        left.marks.elementsEqual(right.marks) { $0 == $1 }
            && left.tip?.elapsed == right.tip?.elapsed && left.tip?.distance == right.tip?.distance
    }

    /// Adds a sample; one out of order (not after the newest) is ignored.
    mutating func record(elapsed: Double, distance: Double) {
        guard elapsed.isFinite, distance.isFinite else { return }
        let newest = tip ?? marks.last
        if let newest, elapsed <= newest.elapsed { return }
        let sample = (elapsed: elapsed, distance: max(distance, newest?.distance ?? distance))
        guard let last = marks.last else {
            marks.append(sample)
            return
        }
        if sample.distance >= last.distance + spacing || sample.elapsed >= last.elapsed + interval {
            marks.append(sample)
            tip = nil
            if marks.count > capacity { marks = marks.enumerated().filter { $0.offset % 2 == 0 }.map(\.element) }
        } else {
            tip = sample
        }
    }

    /// The elapsed time at which the runner last stood at `distance` before going beyond it,
    /// interpolated; nil when they have not gone beyond it.
    func elapsed(passing distance: Double) -> Double? {
        var low = 0
        var high = marks.count
        while low < high {
            let middle = (low + high) / 2
            if marks[middle].distance > distance { high = middle } else { low = middle + 1 }
        }
        let beyond: (elapsed: Double, distance: Double)
        if low < marks.count {
            beyond = marks[low]
        } else if let tip, tip.distance > distance {
            beyond = tip
        } else {
            return nil
        }
        guard low > 0 else { return beyond.elapsed }
        let before = marks[low - 1]
        return before.elapsed
            + (beyond.elapsed - before.elapsed) * (distance - before.distance) / (beyond.distance - before.distance)
    }
}
