/// Pauses the session timer when the wearer stops, with hysteresis and dwell on both edges.
///
/// Both edges are back-dated to when the speed first crossed its threshold, so the dwell itself
/// is counted on the right side. It only ever sees usable fixes: losing the GPS never pauses.
public struct AutoPause: Sendable {
    public enum State: Sendable, Equatable {
        case running(slowSince: GPSTime?)
        case paused(since: GPSTime, fastSince: GPSTime?)
    }

    public enum Transition: Sendable, Equatable {
        case paused(at: GPSTime)
        case resumed(at: GPSTime, pausedFor: Double)
    }

    /// The profile's auto-pause thresholds, and only these (this state is copied with every fix).
    private struct Thresholds: Sendable {
        var pauseSpeed: Double
        var pauseDwell: Double
        var resumeSpeed: Double
        var resumeDwell: Double
    }

    public private(set) var state: State = .running(slowSince: nil)
    private let profile: Thresholds

    public init(profile: ActivityProfile) {
        self.profile = Thresholds(
            pauseSpeed: profile.pauseSpeed,
            pauseDwell: profile.pauseDwell,
            resumeSpeed: profile.resumeSpeed,
            resumeDwell: profile.resumeDwell
        )
    }

    public var isPaused: Bool {
        if case .paused = state { return true }
        return false
    }

    public mutating func update(time: GPSTime, speed: Double) -> Transition? {
        switch state {
        case .running(let slowSince):
            guard speed < profile.pauseSpeed else {
                state = .running(slowSince: nil)
                return nil
            }
            let since = slowSince ?? time
            if time.since(since) >= profile.pauseDwell {
                state = .paused(since: since, fastSince: nil)
                return .paused(at: since)
            }
            state = .running(slowSince: since)
            return nil
        case .paused(let since, let fastSince):
            guard speed > profile.resumeSpeed else {
                state = .paused(since: since, fastSince: nil)
                return nil
            }
            let start = fastSince ?? time
            if time.since(start) >= profile.resumeDwell {
                state = .running(slowSince: nil)
                return .resumed(at: start, pausedFor: max(0, start.since(since)))
            }
            state = .paused(since: since, fastSince: start)
            return nil
        }
    }

    /// Paused time not yet closed by a resume, up to `now`.
    public func openPause(until now: GPSTime) -> Double {
        if case .paused(let since, _) = state { return max(0, now.since(since)) }
        return 0
    }

    /// Carries an open pause over a break in the time line without counting the break.
    public mutating func rebase(closingAt end: GPSTime, reopeningAt start: GPSTime) -> Double {
        guard case .paused(let since, _) = state else {
            state = .running(slowSince: nil)
            return 0
        }
        state = .paused(since: start, fastSince: nil)
        return max(0, end.since(since))
    }

    /// Ends any pause at `end` (a manual pause takes over); returns the paused time it closed.
    public mutating func close(at end: GPSTime) -> Double {
        defer { state = .running(slowSince: nil) }
        return openPause(until: end)
    }
}
