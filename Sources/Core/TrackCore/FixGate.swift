/// First stage of a fix's path: rejects what cannot be used, with a reason.
///
/// `judge` learns from every fix (error baseline, clock offset, rival time lines) but only
/// `commit` moves the time line on, because later stages may still reject a fix the gate passed.
public struct FixGate: Sendable {
    public enum Verdict: Sendable, Equatable {
        /// Usable. `newTimeline` means enough consistent fixes overruled the old time line.
        case accept(newTimeline: Bool)
        case reject(RejectReason)
    }

    /// Fixes that disagree with the established time line but agree with each other.
    private struct RivalTimeline: Sendable {
        var last: GPSTime
        var count: Int
    }

    /// The profile's gate thresholds, and only these: the gate is part of every session's state.
    private struct Thresholds: Sendable {
        var maxSpeed: Double
        var errorFloor: Double
        var errorCeiling: Double
        var errorBaselineMultiple: Double
        var warmUpErrorFactor: Double
        var warmUpFixes: Int
        var staleAfter: Double
        var maxForwardJump: Double
        var gapThreshold: Double
        var timelineResetAfter: Int
    }

    private let profile: Thresholds
    public private(set) var lastEpoch: GPSTime?
    public private(set) var acceptedCount = 0
    public private(set) var errorBaseline = ErrorBaseline()
    public private(set) var clockOffset = ClockOffset()
    private var rival: RivalTimeline?
    /// Consecutive stale fixes and the lateness of the first: a steady shift, not a backlog.
    private var lateStreak: (count: Int, first: Double)?
    /// Stale fixes in a row, late by a steady amount, after which the offset itself has moved.
    private let steadyLateFixes = 5
    /// Two epochs closer than this are the same epoch.
    private let epochTolerance = 0.001

    public init(profile: ActivityProfile) {
        self.profile = Thresholds(
            maxSpeed: profile.maxSpeed,
            errorFloor: profile.errorFloor,
            errorCeiling: profile.errorCeiling,
            errorBaselineMultiple: profile.errorBaselineMultiple,
            warmUpErrorFactor: profile.warmUpErrorFactor,
            warmUpFixes: profile.warmUpFixes,
            staleAfter: profile.staleAfter,
            maxForwardJump: profile.maxForwardJump,
            gapThreshold: profile.gapThreshold,
            timelineResetAfter: profile.timelineResetAfter
        )
    }

    public var isWarmingUp: Bool { acceptedCount < profile.warmUpFixes }

    /// The horizontal error above which a fix is rejected now.
    public var errorThreshold: Double {
        let adaptive = (errorBaseline.value ?? profile.errorCeiling) * profile.errorBaselineMultiple
        let threshold = min(max(adaptive, profile.errorFloor), profile.errorCeiling)
        return isWarmingUp ? threshold * profile.warmUpErrorFactor : threshold
    }

    public mutating func judge(_ fix: Fix) -> Verdict { judge(fix, error: fix.gatingError) }

    /// Judges a fix whose horizontal error is `error` (what the core believes, which may differ
    /// from the fix's own fields; see `ErrorFieldJudge`).
    public mutating func judge(_ fix: Fix, error: Double?) -> Verdict {
        guard fix.mode >= 2 else { return .reject(.noFix) }
        guard let time = fix.time, time.seconds.isFinite else { return .reject(.noTime) }
        guard let position = fix.position, position.isPlausible else { return .reject(.invalidCoordinates) }

        var newTimeline = false
        if let lastEpoch {
            let step = time.since(lastEpoch)
            if abs(step) < epochTolerance { return .reject(.duplicateEpoch) }
            if step < 0 || step > profile.maxForwardJump {
                guard challengeTimeline(with: time) else {
                    return .reject(step < 0 ? .timeBackwards : .timeJump)
                }
                newTimeline = true
            }
        }
        if newTimeline { clockOffset.reset() }

        if let receivedAt = fix.receivedAt, receivedAt.isFinite {
            let lateness = clockOffset.observe(epoch: time, receivedAt: receivedAt)
            if lateness > profile.staleAfter {
                guard isSteady(lateness) else { return .reject(.stale) }
                // A backlog drains (each fix less late than the last); a moved offset does not.
                clockOffset.rebase(epoch: time, receivedAt: receivedAt)
            }
            lateStreak = nil
        }
        if let error, error.isFinite, error >= 0 {
            errorBaseline.observe(error, at: time)
            if error > errorThreshold { return .reject(.horizontalError) }
        }
        if let speed = fix.speed, speed.isFinite, speed > profile.maxSpeed { return .reject(.impossibleSpeed) }
        return .accept(newTimeline: newTimeline)
    }

    /// Moves the time line to a fix that was finally used; `counted` false for one whose Doppler
    /// alone was used, which does not end the warm-up.
    public mutating func commit(_ time: GPSTime, counted: Bool = true) {
        lastEpoch = time
        if counted { acceptedCount += 1 }
        rival = nil
    }

    private mutating func isSteady(_ lateness: Double) -> Bool {
        let streak = lateStreak.map { (count: $0.count + 1, first: $0.first) } ?? (count: 1, first: lateness)
        guard streak.first - lateness < 0.5 else {
            lateStreak = (count: 1, first: lateness)
            return false
        }
        lateStreak = streak
        return streak.count >= steadyLateFixes
    }

    /// Counts a fix against the established time line; true once enough agree to overrule it.
    private mutating func challengeTimeline(with time: GPSTime) -> Bool {
        if var current = rival, time > current.last, time.since(current.last) <= profile.gapThreshold * 4 {
            current.last = time
            current.count += 1
            rival = current
        } else {
            rival = RivalTimeline(last: time, count: 1)
        }
        return (rival?.count ?? 0) >= profile.timelineResetAfter
    }
}
