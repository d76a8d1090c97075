#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Kalman smoothing of fixes in local metres: constant velocity, measuring position and Doppler.
///
/// Measurement noise comes from each fix's own error estimate; the frame re-centres on the
/// filtered position every `recentreDistance` so that plane and ellipsoid never drift apart.
public struct MotionFilter: Sendable {
    public private(set) var frame: LocalFrame
    public private(set) var time: GPSTime
    private(set) var east: AxisFilter
    private(set) var north: AxisFilter
    private let processNoise: Double
    private let recentreDistance = 250.0

    /// Measurement noise of one fix, as 1-sigma values.
    public struct Noise: Sendable, Equatable {
        public var east: Double
        public var north: Double
        public var velocity: Double

        public init(east: Double, north: Double, velocity: Double) {
            self.east = east
            self.north = north
            self.velocity = velocity
        }
    }

    public init(position: GeoPoint, time: GPSTime, noise: Noise, velocity: LocalPoint?, processNoise: Double) {
        frame = LocalFrame(origin: position)
        self.time = time
        let v = velocity ?? LocalPoint(east: 0, north: 0)
        let velocityVariance = velocity == nil ? 4.0 : noise.velocity * noise.velocity
        east = AxisFilter(
            position: 0,
            positionVariance: noise.east * noise.east,
            velocity: v.east,
            velocityVariance: velocityVariance
        )
        north = AxisFilter(
            position: 0,
            positionVariance: noise.north * noise.north,
            velocity: v.north,
            velocityVariance: velocityVariance
        )
        self.processNoise = processNoise
    }

    public var localPosition: LocalPoint { LocalPoint(east: east.position, north: north.position) }
    public var position: GeoPoint { frame.unproject(localPosition) }
    public var velocity: LocalPoint { LocalPoint(east: east.velocity, north: north.velocity) }
    public var speed: Double { (east.velocity * east.velocity + north.velocity * north.velocity).squareRoot() }
    /// Speed with the filter's own velocity noise taken out: E|v̂|² = |v|² + tr(P_v), so noise alone
    /// no longer reads as motion. Matters for receivers without Doppler; with it, tr(P_v) is tiny.
    public var unbiasedSpeed: Double {
        let squared = east.velocity * east.velocity + north.velocity * north.velocity - east.vv - north.vv
        return squared > 0 ? squared.squareRoot() : 0
    }

    /// 1-sigma horizontal position uncertainty (m), the root of the covariance trace.
    public var positionSigma: Double { (east.pp + north.pp).squareRoot() }

    public mutating func predict(to newTime: GPSTime) {
        let dt = newTime.since(time)
        guard dt > 0 else { return }
        east.predict(dt: dt, q: processNoise)
        north.predict(dt: dt, q: processNoise)
        time = newTime
    }

    /// Adds the white-acceleration noise, over the last `dt` seconds, that brings a Doppler
    /// measurement's squared Mahalanobis distance to about `gate`: a manoeuvre the model's own
    /// process noise did not allow for. Nothing changes when the Doppler is already that close.
    mutating func widen(towards measured: LocalPoint, sigma: Double, gate: Double, dt: Double) {
        let de = measured.east - east.velocity
        let dn = measured.north - north.velocity
        // The variance each axis would need for the sum of both to come to `gate`.
        let needed = (de * de + dn * dn) / gate - 0.5 * (east.vv + north.vv) - sigma * sigma
        guard needed > 0, needed.isFinite, dt > 0 else { return }
        let q = needed / dt
        east.addProcessNoise(dt: dt, q: q)
        north.addProcessNoise(dt: dt, q: q)
    }

    /// A measurement's residuals against the prediction, with the filter's own variance there.
    public struct Innovation: Sendable {
        public var east: Double
        public var north: Double
        public var eastVariance: Double
        public var northVariance: Double
    }

    public func positionInnovation(_ measured: LocalPoint) -> Innovation {
        Innovation(
            east: measured.east - east.position,
            north: measured.north - north.position,
            eastVariance: east.pp,
            northVariance: north.pp
        )
    }

    public func velocityInnovation(_ measured: LocalPoint) -> Innovation {
        Innovation(
            east: measured.east - east.velocity,
            north: measured.north - north.velocity,
            eastVariance: east.vv,
            northVariance: north.vv
        )
    }

    /// Squared Mahalanobis distance of a measured position from the prediction.
    public func mahalanobis(_ measured: LocalPoint, noise: Noise) -> Double {
        let e = east.positionInnovation(measured.east, variance: noise.east * noise.east)
        let n = north.positionInnovation(measured.north, variance: noise.north * noise.north)
        return e.residual * e.residual / e.variance + n.residual * n.residual / n.variance
    }

    public mutating func updatePosition(_ measured: LocalPoint, noise: Noise) {
        east.updatePosition(measured.east, variance: noise.east * noise.east)
        north.updatePosition(measured.north, variance: noise.north * noise.north)
        recentreIfFar()
    }

    /// Squared Mahalanobis distance of a measured velocity from the prediction.
    public func velocityMahalanobis(_ measured: LocalPoint, sigma: Double) -> Double {
        let r = sigma * sigma
        let de = measured.east - east.velocity
        let dn = measured.north - north.velocity
        return de * de / (east.vv + r) + dn * dn / (north.vv + r)
    }

    /// Squared Mahalanobis distance (1 dof) of a measured speed from the filter's: the filter's
    /// variance along one axis (the mean of both) and the measurement's.
    public func speedMahalanobis(_ measured: Double, sigma: Double) -> Double {
        let d = measured - speed
        return d * d / (0.5 * (east.vv + north.vv) + sigma * sigma)
    }

    public mutating func updateVelocity(_ measured: LocalPoint, sigma: Double) {
        let r = sigma * sigma
        east.updateVelocity(measured.east, variance: r)
        north.updateVelocity(measured.north, variance: r)
    }

    private mutating func recentreIfFar() {
        let here = localPosition
        guard abs(here.east) > recentreDistance || abs(here.north) > recentreDistance else { return }
        frame = LocalFrame(origin: frame.unproject(here))
        east.shift(by: here.east)
        north.shift(by: here.north)
    }
}
