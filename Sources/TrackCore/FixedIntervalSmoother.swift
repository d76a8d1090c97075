/// A Rauch-Tung-Striebel pass over a finished session's filter steps: the distance the session
/// would have had if every step had also known the fixes after it.
///
/// Evidence for issue 25, recorded only when asked (`TrackSession(recordingSteps:)`): it keeps
/// every step, about 230 bytes each, which a 12-hour session at 10 Hz cannot carry live.
public struct FixedIntervalSmoother: Sendable {
    struct Step: Sendable {
        /// The forward filter after predicting to this step, before its measurements; nil where a
        /// fresh filter starts (the first fix, a bridged gap, a reset): the chain breaks there.
        var predicted: MotionFilter.Axes?
        var posterior: MotionFilter.Axes
        var dt: Double
        /// How far the frame's origin moved in this step: the posterior's positions are this much
        /// smaller than they would be in the prediction's frame.
        var shift: LocalPoint
        /// The step's speed integral when the forward pass credited all of it (moving); nil when
        /// it credited something else (standing, a departure being confirmed).
        var credited: Double?
    }

    private(set) var steps: [Step] = []

    init() {}

    mutating func open(_ filter: MotionFilter) {
        let none = LocalPoint(east: 0, north: 0)
        steps.append(Step(predicted: nil, posterior: filter.axes, dt: 0, shift: none, credited: nil))
    }

    /// One filtered step: `predicted` taken after the prediction, `filter` after the measurements.
    mutating func step(predicted: MotionFilter.Axes, filter: MotionFilter, dt: Double, credited: Double?) {
        let shift = LocalPoint(
            east: filter.recentred.east - predicted.recentred.east,
            north: filter.recentred.north - predicted.recentred.north
        )
        steps.append(Step(predicted: predicted, posterior: filter.axes, dt: dt, shift: shift, credited: credited))
    }

    /// Smoothed minus forward distance, over the steps the forward pass credited in full.
    public var correction: Double {
        var total = 0.0
        var next: (east: AxisFilter.Moment, north: AxisFilter.Moment)?
        var nextSpeed = 0.0
        for index in steps.indices.reversed() {
            let step = steps[index]
            var east = step.posterior.east.moment
            var north = step.posterior.north.moment
            if let later = next, index + 1 < steps.count, let predicted = steps[index + 1].predicted {
                let shift = steps[index + 1].shift
                let dt = steps[index + 1].dt
                east = step.posterior.east.smoothed(
                    nextPredicted: predicted.east,
                    nextSmoothed: .init(position: later.east.position + shift.east, velocity: later.east.velocity),
                    dt: dt
                )
                north = step.posterior.north.smoothed(
                    nextPredicted: predicted.north,
                    nextSmoothed: .init(position: later.north.position + shift.north, velocity: later.north.velocity),
                    dt: dt
                )
                if let forward = steps[index + 1].credited {
                    let speed = (east.velocity * east.velocity + north.velocity * north.velocity).squareRoot()
                    total += 0.5 * (speed + nextSpeed) * dt - forward
                }
            }
            next = (east, north)
            nextSpeed = (east.velocity * east.velocity + north.velocity * north.velocity).squareRoot()
        }
        return total
    }
}

extension AxisFilter {
    struct Moment: Sendable {
        var position: Double
        var velocity: Double
    }

    var moment: Moment { Moment(position: position, velocity: velocity) }

    /// The RTS step: this posterior corrected by what the next step learnt after predicting,
    /// through the gain C = P Fᵀ (P⁻)⁻¹ of the constant-velocity transition over `dt`.
    func smoothed(nextPredicted predicted: AxisFilter, nextSmoothed later: Moment, dt: Double) -> Moment {
        let det = predicted.pp * predicted.vv - predicted.pv * predicted.pv
        guard det > 0, det.isFinite else { return moment }
        // P Fᵀ for F = [1 dt; 0 1].
        let a11 = pp + dt * pv
        let a12 = pv
        let a21 = pv + dt * vv
        let a22 = vv
        let c11 = (a11 * predicted.vv - a12 * predicted.pv) / det
        let c12 = (a12 * predicted.pp - a11 * predicted.pv) / det
        let c21 = (a21 * predicted.vv - a22 * predicted.pv) / det
        let c22 = (a22 * predicted.pp - a21 * predicted.pv) / det
        let dx = later.position - predicted.position
        let dv = later.velocity - predicted.velocity
        return Moment(position: position + c11 * dx + c12 * dv, velocity: velocity + c21 * dx + c22 * dv)
    }
}
