/// Decides whether the wearer stands still, so that receiver noise around one spot adds no distance.
///
/// Starts still: a session usually begins standing at the start line. Movement resumes on
/// sustained speed or on leaving the standing point; the distance covered while that was being
/// confirmed is credited then, so no real metre is lost.
public struct StillnessDetector: Sendable {
    public enum State: Sendable, Equatable {
        case moving(meanSpeed: Double)
        /// Standing at `anchor`; `candidateSince` and `pending` track a possible departure.
        case still(anchor: GeoPoint, candidateSince: GPSTime?, pending: Double)
    }

    public private(set) var state: State
    private let profile: ActivityProfile

    public init(profile: ActivityProfile, anchor: GeoPoint) {
        self.profile = profile
        state = .still(anchor: anchor, candidateSince: nil, pending: 0)
    }

    public var isStill: Bool {
        if case .still = state { return true }
        return false
    }

    /// Feeds one filtered step and returns the distance to credit for it.
    /// - Parameters:
    ///   - increment: distance the filter says was covered since the previous step.
    ///   - displacement: distance of the filtered position from `anchor` when still.
    public mutating func step(
        time: GPSTime, dt: Double, speed: Double, increment: Double, position: GeoPoint,
        displacement: (GeoPoint) -> Double
    ) -> Double {
        switch state {
        case .moving(let meanSpeed):
            let alpha = min(1, dt / profile.stillWindow)
            let mean = meanSpeed + alpha * (speed - meanSpeed)
            state = mean < profile.stillSpeed
                ? .still(anchor: position, candidateSince: nil, pending: 0)
                : .moving(meanSpeed: mean)
            return increment
        case .still(let anchor, var candidateSince, var pending):
            if speed > profile.moveSpeed {
                candidateSince = candidateSince ?? time
                pending += increment
            } else {
                candidateSince = nil
                pending = 0
            }
            if let since = candidateSince, time.since(since) >= profile.moveDwell {
                state = .moving(meanSpeed: speed)
                return pending
            }
            let away = displacement(anchor)
            if away > profile.moveRadius {
                state = .moving(meanSpeed: max(speed, profile.stillSpeed))
                return max(pending, away)
            }
            state = .still(anchor: anchor, candidateSince: candidateSince, pending: pending)
            return 0
        }
    }

    /// After a gap: moved beyond the radius means moving, otherwise still where we were.
    public mutating func bridged(movedAway: Bool, to position: GeoPoint, speed: Double) {
        if movedAway {
            state = .moving(meanSpeed: max(speed, profile.stillSpeed))
        } else if case .moving = state {
            state = .still(anchor: position, candidateSince: nil, pending: 0)
        }
    }
}
