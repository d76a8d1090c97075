#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns a fix's own error estimates and Doppler into what the motion filter measures.
struct MeasurementModel: Sendable {
    let profile: ActivityProfile
    /// gpsd's `epx`/`epy` are 95% bounds along one axis: 1.96 sigma.
    private let axis95 = 1.96
    /// gpsd's `eph` is a 95% radius in two dimensions: 2.45 sigma per axis.
    private let radial95 = 2.45
    private let minimumSigma = 0.5

    func noise(for fix: Fix) -> MotionFilter.Noise {
        var east = profile.defaultPositionSigma
        var north = profile.defaultPositionSigma
        if let ex = fix.errorEast, let ey = fix.errorNorth, ex.isFinite, ey.isFinite, ex > 0, ey > 0 {
            east = ex / axis95
            north = ey / axis95
        } else if let eph = fix.horizontalError, eph.isFinite, eph > 0 {
            east = eph / radial95
            north = east
        }
        var velocity = profile.defaultVelocitySigma
        if let eps = fix.speedError, eps.isFinite, eps > 0 {
            velocity = min(max(eps / axis95, 0.05), 5)
        }
        return .init(east: max(east, minimumSigma), north: max(north, minimumSigma), velocity: velocity)
    }

    /// Doppler velocity east/north with its 1-sigma noise, when the fix carries one.
    ///
    /// A small speed is believed only while the filter does not already think the wearer fast
    /// (`predictedSpeed`): receivers send a stale `speed: 0` (with or without a course) while they
    /// move, and nobody stops from a run within one fix. gpsd omits `track` when the receiver barely
    /// moves; a small speed without a course is then measured as standing still, with the speed
    /// itself as extra uncertainty.
    func velocity(for fix: Fix, sigma: Double, predictedSpeed: Double) -> (velocity: LocalPoint, sigma: Double)? {
        guard let speed = fix.speed, speed.isFinite, speed >= 0 else { return nil }
        if speed < profile.moveSpeed && predictedSpeed >= 2 * profile.moveSpeed { return nil }
        if let track = fix.track, track.isFinite {
            let radians = track * Double.pi / 180
            return (LocalPoint(east: speed * sin(radians), north: speed * cos(radians)), sigma)
        }
        guard speed < profile.moveSpeed else { return nil }
        return (LocalPoint(east: 0, north: 0), (speed * speed + sigma * sigma).squareRoot())
    }

    /// True unless a Doppler measurement is there and within twice its own noise of zero.
    func isSignificant(_ doppler: (velocity: LocalPoint, sigma: Double)?) -> Bool {
        guard let doppler else { return true }
        let v = doppler.velocity
        return (v.east * v.east + v.north * v.north).squareRoot() > 2 * doppler.sigma
    }
}
