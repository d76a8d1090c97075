import TrackCore

/// What each step of a replay credited against what the receiver's own speed covered meanwhile:
/// the check that a resume from standing pays for no drift of the standstill.
///
/// A step's credit is compared with the Doppler integral (trapezoids, fix to fix) since the last
/// step that credited anything: a departure is confirmed over a few seconds and credited at
/// once, so its credit covers that whole window, and no more than it. The integral runs over every
/// fix, taken or not (a position the gate rejected still came with the receiver's speed). Left
/// out: a step that bridges a gap (across a gap the integral knows only the two ends' speeds),
/// and one whose window holds a speed no body has or a time that does not follow the one before.
public struct StepCredits: Sendable {
    /// What one step may credit beyond the integral: the metres a departure confirmed by the
    /// positions (leaving the standing point, for a receiver without a usable Doppler) may carry.
    public static let slack = 4.0

    public struct Step: Sendable {
        /// The step's fix time (GPS seconds), what it credited and the Doppler integral it is held to.
        public var time: Double
        public var credited: Double
        public var doppler: Double
        public var excess: Double { credited - doppler }
    }

    /// The step whose credit most exceeds the Doppler integral over the time it covers; nil when
    /// no step credited anything.
    public private(set) var worst: Step?
    /// The largest credit of any one step, whatever it covers.
    public private(set) var largest: Step?
    /// Steps that credited more than `slack` beyond the integral.
    public private(set) var over: [Step] = []

    private let slack: Double
    private var previous: Fix?
    /// The integral since the last credit; nil when a fix in it had no speed a body could have.
    private var window: Double? = 0
    private var distance = 0.0

    public init(slack: Double) {
        self.slack = slack
    }

    /// Replays `fixes` as `replayed` does, step by step.
    public init(_ fixes: [Fix], activity: Activity, slack: Double) {
        self.init(slack: slack)
        _ = replayed(fixes, activity: activity) { observe($0, $1, distance: $2.distance) }
    }

    private static func plausible(_ speed: Double?) -> Double? {
        guard let speed, speed.isFinite, speed >= 0 else { return nil }
        return speed
    }

    /// One fix the core took (`outcome`), with the session's distance after it.
    public mutating func observe(_ fix: Fix, _ outcome: FixOutcome, distance now: Double) {
        let credited = now - distance
        distance = now
        if let last = previous, let t0 = last.time, let t1 = fix.time {
            if let v0 = Self.plausible(last.speed), let v1 = Self.plausible(fix.speed), t1 > t0 {
                window = window.map { $0 + 0.5 * (v0 + v1) * t1.since(t0) }
            } else {
                window = nil
            }
        }
        previous = fix
        guard credited > 1e-9 else { return }
        defer { window = 0 }
        let bridged = outcome.events.contains {
            if case .gapBridged = $0 { return true }
            return false
        }
        guard !bridged, let time = fix.time, let window else { return }
        let step = Step(time: time.seconds, credited: credited, doppler: window)
        if worst.map({ step.excess > $0.excess }) ?? true { worst = step }
        if largest.map({ step.credited > $0.credited }) ?? true { largest = step }
        if step.excess > slack { over.append(step) }
    }
}
