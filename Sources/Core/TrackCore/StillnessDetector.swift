/// Decides whether the wearer stands still, so that receiver noise around one spot adds no distance.
///
/// Starts still: a session usually begins standing at the start line. Movement resumes on
/// sustained speed, or on leaving the standing point at more than walking-in-place speed (for
/// receivers without Doppler); the distance covered while that was being confirmed is credited
/// then, so no real metre is lost. A departure across a gap in the fixes must be confirmed by
/// positions: right after it reacquires, a receiver's Doppler is often its own extrapolation.
public struct StillnessDetector: Sendable {
    public enum State: Sendable, Equatable {
        /// Moving; `meanVelocity` is a moving average of the velocity vector, so that noise in
        /// its direction averages out instead of adding up as speed.
        case moving(meanVelocity: LocalPoint)
        /// Standing at `anchor`, known to within `anchorSigma` metres; `candidateSince` and
        /// `pending` track a possible departure, `carried` the distance bridged across a gap that
        /// waits for positions to confirm it.
        case still(anchor: GeoPoint, anchorSigma: Double, candidateSince: GPSTime?, pending: Double, carried: Double)
    }

    /// The profile's standing-still thresholds: only these, so that the filter's state stays
    /// small enough to copy cheaply fix after fix.
    private struct Thresholds: Sendable {
        var stillSpeed: Double
        var stillWindow: Double
        var moveSpeed: Double
        var moveDwell: Double
        var moveRadius: Double
        var minCoherence: Double
    }

    public private(set) var state: State
    private let profile: Thresholds
    /// The receiver's own Doppler speed integrated since it last read below `moveSpeed`, and the
    /// last reading. A departure from standing is credited at least this: the filter's velocity
    /// gate takes the first Doppler of a start (0 to running pace in one epoch) for an outlier and
    /// the filter catches up over the next seconds, so it counts the first strides short.
    private var dopplerSinceStanding = 0.0
    private var lastDopplerSpeed: Double?

    /// `measuredSpeed`: the first fix's own Doppler speed, when plausible, so that a session
    /// that begins already moving is credited its Doppler from that fix on.
    public init(profile: ActivityProfile, anchor: GeoPoint, sigma: Double, measuredSpeed: Double? = nil) {
        self.profile = Thresholds(
            stillSpeed: profile.stillSpeed,
            stillWindow: profile.stillWindow,
            moveSpeed: profile.moveSpeed,
            moveDwell: profile.moveDwell,
            moveRadius: profile.moveRadius,
            minCoherence: profile.receiver.minCoherence
        )
        state = .still(anchor: anchor, anchorSigma: sigma, candidateSince: nil, pending: 0, carried: 0)
        lastDopplerSpeed = measuredSpeed
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
    ///   - coherence: how consistently the Doppler has pointed one way (`DopplerCoherence`); nil
    ///     when there is no Doppler direction to judge. Doppler that points anywhere is noise, and
    ///     neither its speed nor a wandering position it goes with is a departure.
    ///   - dopplerSpeed: the Doppler's mean speed when it stands clear of its noise; a U-turn shrinks
    ///     the mean velocity vector but not this, and is not a stop.
    ///   - measuredSpeed: this fix's own Doppler speed, when plausible; a confirmed departure is
    ///     credited at least its integral since it last read standing.
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
        coherence: Double?,
        dopplerSpeed: Double?,
        measuredSpeed: Double?,
        displacement: (GeoPoint) -> Double
    ) -> Double {
        let previousDoppler = lastDopplerSpeed
        lastDopplerSpeed = measuredSpeed
        switch state {
        case .moving(let meanVelocity):
            let alpha = min(1, dt / profile.stillWindow)
            let mean = LocalPoint(
                east: meanVelocity.east + alpha * (velocity.east - meanVelocity.east),
                north: meanVelocity.north + alpha * (velocity.north - meanVelocity.north)
            )
            let meanSpeed = (mean.east * mean.east + mean.north * mean.north).squareRoot()
            let stopped = meanSpeed < profile.stillSpeed && (dopplerSpeed ?? 0) < profile.moveSpeed
            if stopped {
                // What the Doppler covered while moving was credited then: count afresh from here.
                dopplerSinceStanding = 0
                state = .still(anchor: position, anchorSigma: sigma, candidateSince: nil, pending: 0, carried: 0)
            } else {
                state = .moving(meanVelocity: mean)
            }
            return increment
        case .still(var anchor, var anchorSigma, var candidateSince, var pending, var carried):
            if let speed = measuredSpeed, speed >= profile.moveSpeed, let last = previousDoppler {
                dopplerSinceStanding += 0.5 * (last + speed) * dt
            } else {
                dopplerSinceStanding = 0
            }
            let incoherent = coherence.map { $0 < profile.minCoherence } ?? false
            if speed > profile.moveSpeed && significant && !incoherent {
                candidateSince = candidateSince ?? time
                pending += increment
            } else {
                candidateSince = nil
                pending = 0
                carried = 0
            }
            if candidateSince == nil, carried == 0, speed < profile.stillSpeed,
                let doppler = measuredSpeed, doppler < profile.stillSpeed
            {
                // Standing by the filter and by the receiver's own Doppler: a position that moves
                // now is the receiver's bias wandering. Stand where it now says, so that leaving
                // later is measured from here and the stop's drift is never paid as distance.
                anchor = position
                anchorSigma = sigma
            }
            if let since = candidateSince, time.since(since) >= profile.moveDwell, carried == 0 {
                state = .moving(meanVelocity: velocity)
                return max(pending, dopplerSinceStanding)
            }
            let away = displacement(anchor)
            if away > max(profile.moveRadius, 2 * (anchorSigma + sigma)) {
                guard speed >= profile.stillSpeed, !incoherent else {
                    // Drift of a still receiver's bias (or of a noisy one whose Doppler points
                    // anywhere), not a departure: stand where it now says.
                    state = .still(
                        anchor: position,
                        anchorSigma: sigma,
                        candidateSince: candidateSince,
                        pending: pending,
                        carried: carried
                    )
                    return 0
                }
                state = .moving(meanVelocity: velocity)
                // The receiver's own speed measures the way off the standing point; the positions'
                // displacement also carries their noise. Positions only where the Doppler has not
                // seen the motion (a receiver without one, or one stuck near zero).
                let seen = dopplerSinceStanding >= 0.5 * away
                return carried + max(pending, seen ? dopplerSinceStanding : away)
            }
            state = .still(
                anchor: anchor,
                anchorSigma: anchorSigma,
                candidateSince: candidateSince,
                pending: pending,
                carried: carried
            )
            return 0
        }
    }

    /// Crosses an outage and returns the distance to credit now.
    ///
    /// Moving before the gap: `bridged` if it ended away from where it began. Standing before it:
    /// nothing yet; the bridged distance is carried until the positions after the gap leave the
    /// new standing point, because a weak receiver's first fix after an outage is often far off
    /// and its Doppler then is often its own extrapolation.
    public mutating func bridge(
        chord: Double,
        bridged: Double,
        to position: GeoPoint,
        sigma: Double,
        time: GPSTime,
        velocity: LocalPoint,
        significant: Bool,
        coherence: Double?
    ) -> Double {
        dopplerSinceStanding = 0
        lastDopplerSpeed = nil
        let speed = (velocity.east * velocity.east + velocity.north * velocity.north).squareRoot()
        let movedAway = chord > profile.moveRadius
        switch state {
        case .moving:
            if movedAway {
                state = .moving(meanVelocity: velocity)
                return bridged
            }
            state = .still(anchor: position, anchorSigma: sigma, candidateSince: nil, pending: 0, carried: 0)
            return chord
        case .still:
            let coherent = coherence.map { $0 >= profile.minCoherence } ?? true
            let departing = movedAway && speed > profile.moveSpeed && significant && coherent
            state = .still(
                anchor: position,
                anchorSigma: sigma,
                candidateSince: departing ? time : nil,
                pending: 0,
                carried: departing ? bridged : 0
            )
            return 0
        }
    }
}
