import TrackCore

/// Where a session's distance error comes from: every interval between two fixes is put
/// in one class (a gap, stopping or starting, a turn, a straight) and what the core credited there
/// is set beside the receiver's own Doppler speed integrated over it. The Doppler integral ignores
/// position noise, so on straights and turns it is the local reference; the truth gives only the
/// total, so the Doppler integral's own error against it says how far the reference itself is off.
struct ErrorBreakdown {
    enum Class: String, CaseIterable {
        case straight
        case turnCut = "turn (cut)"
        case turnOver = "turn (over)"
        case stopStart = "stop/start"
        case gap
    }

    struct Part {
        var ours = 0.0
        var doppler = 0.0
        var seconds = 0.0
        var difference: Double { ours - doppler }

        mutating func add(_ other: Part) {
            ours += other.ours
            doppler += other.doppler
            seconds += other.seconds
        }
    }

    /// What an interval needs: when it ended, the fix's Doppler speed and course, and the core's
    /// distance after it.
    struct Sample {
        var time: Double
        var speed: Double?
        var course: Double?
        var distance: Double
    }

    /// Below this Doppler speed at either end, an interval is stopping or starting (a walker's
    /// slowest pace is about 0.8 m/s; the Doppler's own noise about 0.1 m/s).
    static let stoppedSpeed = 0.5
    /// Course change per metre over which the path is a turn: a 400 m track's bend (r 36.5 m) turns
    /// 1.6 degrees per metre, a straight's Doppler course wanders a few tenths.
    static let turnDegreesPerMetre = 0.8
    /// An interval longer than this many nominal intervals is a gap.
    static let gapIntervals = 2.5

    private(set) var parts: [Class: Part] = [:]
    private(set) var ours = 0.0
    private(set) var doppler = 0.0
    /// The Doppler integral over intervals standing still (both ends below `stoppedSpeed`): a speed
    /// is a magnitude, so its noise around zero adds up to distance nobody covered.
    private(set) var standing = 0.0

    init(samples all: [Sample]) {
        // A repeated or out-of-order epoch adds no interval; what the core did on it still counts.
        var samples: [Sample] = []
        for sample in all {
            if let last = samples.last, sample.time <= last.time {
                samples[samples.count - 1].distance = sample.distance
            } else {
                samples.append(sample)
            }
        }
        let intervals = zip(samples, samples.dropFirst()).map { $1.time - $0.time }.filter { $0 > 0 }.sorted()
        let nominal = intervals.isEmpty ? 1 : intervals[intervals.count / 2]
        // Contiguous turning intervals form one turn: cut or overshot as a whole.
        var turn: [Part] = []
        func closeTurn() {
            guard !turn.isEmpty else { return }
            let whole = turn.reduce(into: Part()) { $0.add($1) }
            add(whole, to: whole.difference < 0 ? .turnCut : .turnOver)
            turn = []
        }
        for index in samples.indices.dropFirst() {
            let (previous, sample) = (samples[index - 1], samples[index])
            let seconds = sample.time - previous.time
            guard seconds > 0 else { continue }
            var part = Part(ours: sample.distance - previous.distance, seconds: seconds)
            guard let v0 = previous.speed, let v1 = sample.speed, seconds <= Self.gapIntervals * nominal else {
                // Across a gap the Doppler integral has only the speeds at its two ends.
                part.doppler = 0.5 * ((previous.speed ?? 0) + (sample.speed ?? 0)) * seconds
                closeTurn()
                add(part, to: .gap)
                continue
            }
            part.doppler = 0.5 * (v0 + v1) * seconds
            if max(v0, v1) < Self.stoppedSpeed { standing += part.doppler }
            if min(v0, v1) < Self.stoppedSpeed {
                closeTurn()
                add(part, to: .stopStart)
            } else if Self.turning(samples, at: index) {
                turn.append(part)
            } else {
                closeTurn()
                add(part, to: .straight)
            }
        }
        closeTurn()
    }

    /// The course change over the fixes around `index` (two either side, smoothing the Doppler
    /// course's noise), per metre travelled.
    private static func turning(_ samples: [Sample], at index: Int) -> Bool {
        let from = max(0, index - 2)
        let to = min(samples.count - 1, index + 1)
        guard let c0 = samples[from].course, let c1 = samples[to].course else { return false }
        var metres = 0.0
        for i in (from + 1)...to {
            let seconds = samples[i].time - samples[i - 1].time
            metres += 0.5 * ((samples[i - 1].speed ?? 0) + (samples[i].speed ?? 0)) * seconds
        }
        guard metres > 0 else { return false }
        var change = abs(c1 - c0).truncatingRemainder(dividingBy: 360)
        if change > 180 { change = 360 - change }
        return change / metres > turnDegreesPerMetre
    }

    private mutating func add(_ part: Part, to kind: Class) {
        parts[kind, default: Part()].add(part)
        ours += part.ours
        doppler += part.doppler
    }
}
