/// A constant-velocity Kalman filter along one axis: position, velocity and their covariance.
///
/// East and north are filtered independently because gpsd's errors (`epx`, `epy`) and the
/// isotropic Doppler noise model are independent per axis; two 2-state filters cost a fraction of
/// one 4-state filter and give the same answer.
struct AxisFilter: Sendable, Equatable {
    var position: Double
    var velocity: Double
    var pp: Double
    var pv: Double
    var vv: Double

    init(position: Double, positionVariance: Double, velocity: Double, velocityVariance: Double) {
        self.position = position
        self.velocity = velocity
        pp = positionVariance
        pv = 0
        vv = velocityVariance
    }

    /// Advances by `dt` seconds under white acceleration of spectral density `q`.
    mutating func predict(dt: Double, q: Double) {
        position += velocity * dt
        let dt2 = dt * dt
        pp += 2 * dt * pv + dt2 * vv + q * dt2 * dt / 3
        pv += dt * vv + q * dt2 / 2
        vv += q * dt
    }

    /// Adds the covariance of `dt` seconds of white acceleration `q` to a prediction already made.
    mutating func addProcessNoise(dt: Double, q: Double) {
        let dt2 = dt * dt
        pp += q * dt2 * dt / 3
        pv += q * dt2 / 2
        vv += q * dt
    }

    /// Innovation and its variance for a position measurement with variance `r`.
    func positionInnovation(_ z: Double, variance r: Double) -> (residual: Double, variance: Double) {
        (z - position, pp + r)
    }

    mutating func updatePosition(_ z: Double, variance r: Double) {
        let s = pp + r
        let kp = pp / s
        let kv = pv / s
        let y = z - position
        position += kp * y
        velocity += kv * y
        let newPP = pp - kp * pp
        let newPV = pv - kp * pv
        let newVV = vv - kv * pv
        pp = newPP
        pv = newPV
        vv = newVV
    }

    mutating func updateVelocity(_ z: Double, variance r: Double) {
        let s = vv + r
        let kp = pv / s
        let kv = vv / s
        let y = z - velocity
        position += kp * y
        velocity += kv * y
        let newPP = pp - kp * pv
        let newPV = pv - kp * vv
        let newVV = vv - kv * vv
        pp = newPP
        pv = newPV
        vv = newVV
    }

    /// Moves the position origin by `offset` metres (the frame was re-centred).
    mutating func shift(by offset: Double) {
        position -= offset
    }
}
