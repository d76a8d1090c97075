/// Decides whether the wearer stands still, so that receiver noise around one spot adds no distance.
///
/// Starts still: a session usually begins standing at the start line. Movement resumes on
/// sustained speed, or on leaving the standing point at more than walking-in-place speed (for
/// receivers without Doppler); the distance covered while that was being confirmed is credited
/// then, so no real metre is lost.
public struct StillnessDetector: Sendable {
    public enum State: Sendable, Equatable {
        /// Moving; `meanVelocity` is a moving average of the velocity vector, so that noise in
        /// its direction averages out instead of adding up as speed.
        case moving(meanVelocity: LocalPoint)
        /// Standing at `anchor`, known to within `anchorSigma` metres; `candidateSince` and
        /// `pending` track a possible departure.
        case still(anchor: GeoPoint, anchorSigma: Double, candidateSince: GPSTime?, pending: Double)
    }

    public private(set) var state: State
    private let profile: ActivityProfile

    public init(profile: ActivityProfile, anchor: GeoPoint, sigma: Double) {
        self.profile = profile
        state = .still(anchor: anchor, anchorSigma: sigma, candidateSince: nil, pending: 0)
    }

    public var isStill: Bool {
        if case .still = state { return true }
        return false
    }

    /// Feeds one filtered step and returns the distance to credit for it.
    /// - Parameters:
    ///   - increment: distance the filter says was covered since the previous step.
    ///   - significant: the fix's own Doppler, if it has one, is well above its error estimate;
    ///     a weak receiver's noisy Doppler must not end standing still on its own.
    ///   - sigma: 1-sigma uncertainty of the filtered position; leaving the anchor counts only
    ///     beyond what the two positions' errors explain.
    ///   - displacement: distance of the filtered position from `anchor` when still.
    public mutating func step(
        time: GPSTime,
        dt: Double,
        speed: Double,
        velocity: LocalPoint,
        increment: Double,
        position: GeoPoint,
        sigma: Double,
        significant: Bool,
        displacement: (GeoPoint) -> Double
    ) -> Double {
        switch state {
        case .moving(let meanVelocity):
            let alpha = min(1, dt / profile.stillWindow)
            let mean = LocalPoint(
                east: meanVelocity.east + alpha * (velocity.east - meanVelocity.east),
                north: meanVelocity.north + alpha * (velocity.north - meanVelocity.north)
            )
            let meanSpeed = (mean.east * mean.east + mean.north * mean.north).squareRoot()
            state =
                meanSpeed < profile.stillSpeed
                ? .still(anchor: position, anchorSigma: sigma, candidateSince: nil, pending: 0)
                : .moving(meanVelocity: mean)
            return increment
        case .still(let anchor, let anchorSigma, var candidateSince, var pending):
            if speed > profile.moveSpeed && significant {
                candidateSince = candidateSince ?? time
                pending += increment
            } else {
                candidateSince = nil
                pending = 0
            }
            if let since = candidateSince, time.since(since) >= profile.moveDwell {
                state = .moving(meanVelocity: velocity)
                return pending
            }
            let away = displacement(anchor)
            if away > max(profile.moveRadius, 2 * (anchorSigma + sigma)) {
                guard speed >= profile.stillSpeed else {
                    // Drift of a still receiver's bias, not a departure: stand where it now says.
                    state = .still(
                        anchor: position,
                        anchorSigma: sigma,
                        candidateSince: candidateSince,
                        pending: pending
                    )
                    return 0
                }
                state = .moving(meanVelocity: velocity)
                return max(pending, away)
            }
            state = .still(anchor: anchor, anchorSigma: anchorSigma, candidateSince: candidateSince, pending: pending)
            return 0
        }
    }

    /// Crosses an outage and returns the distance to credit now.
    ///
    /// Moving before the gap: `bridged` if it ended away from where it began. Standing before it:
    /// nothing yet; the bridged distance waits as pending until the fixes after the gap confirm
    /// a departure, because a weak receiver's first fix after an outage is often far off.
    public mutating func bridge(
        chord: Double,
        bridged: Double,
        to position: GeoPoint,
        sigma: Double,
        time: GPSTime,
        velocity: LocalPoint,
        significant: Bool
    ) -> Double {
        let speed = (velocity.east * velocity.east + velocity.north * velocity.north).squareRoot()
        let movedAway = chord > profile.moveRadius
        switch state {
        case .moving:
            if movedAway {
                state = .moving(meanVelocity: velocity)
                return bridged
            }
            state = .still(anchor: position, anchorSigma: sigma, candidateSince: nil, pending: 0)
            return chord
        case .still:
            let departing = movedAway && speed > profile.moveSpeed && significant
            state = .still(
                anchor: position,
                anchorSigma: sigma,
                candidateSince: departing ? time : nil,
                pending: departing ? bridged : 0
            )
            return 0
        }
    }
}
