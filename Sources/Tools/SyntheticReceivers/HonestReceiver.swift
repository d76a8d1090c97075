import Foundation
import Harness
import TrackCore

/// A receiver whose numbers are honest, noised as the simulated sessions of data/gps are, on routes of
/// their shapes: one session is one draw of the noise, so a figure within that noise needs many.
///
/// The Doppler noise is what `scripts/doppler-noise.py` measures on `data/gps`
/// (residuals from a local fit): a speed noised on its own and clipped at zero, so that standing
/// reads exactly 0 half the time, and a course noised on its own. The running sessions: 0.14-0.15
/// m/s and 3-4 degrees at 1 Hz, 0.22 m/s (correlated from one epoch to the next) and 3.4 at 10 Hz.
public enum HonestReceiver {
    public struct Noise: Sendable {
        /// 1-sigma of the reported speed (m/s) and its correlation from one epoch to the next.
        public var speed: Double
        public var speedCorrelation: Double
        /// 1-sigma of the reported course (degrees).
        public var course: Double
        /// Instead: the velocity noised east and north alike (`speed` per axis, `course` unused) and
        /// speed and course taken from it, as a receiver that solves for its velocity vector does.
        /// Its speed then reads high by about sigma squared over twice the speed.
        public var vector = false

        public init(speed: Double, speedCorrelation: Double, course: Double, vector: Bool = false) {
            self.speed = speed
            self.speedCorrelation = speedCorrelation
            self.course = course
            self.vector = vector
        }

        public static let oneHertz = Noise(speed: 0.15, speedCorrelation: 0, course: 3)
        public static let tenHertz = Noise(speed: 0.22, speedCorrelation: 0.3, course: 3)
        /// The course exact: what the course's noise alone costs, by difference.
        public static let tenHertzExactCourse = Noise(speed: 0.22, speedCorrelation: 0.3, course: 0)
        public static let tenHertzVector = Noise(speed: 0.22, speedCorrelation: 0.3, course: 0, vector: true)
    }

    public static let origin = GeoPoint(latitude: 55.6761, longitude: 12.5683)
    public static let start = GPSTime(seconds: 1_118_327_684)

    /// A curvy tempo run at 4.4-4.6 m/s for about `seconds` (by default about 3 km), turning most
    /// of the time as `tempo_10hz_3k` does, with no stop: it passes the start and the
    /// finish at pace.
    public static func tempo(
        rate: Double = 10,
        seconds: Double = 655,
        noise: Noise? = nil,
        seed: UInt64
    ) -> (fixes: [Fix], truth: Double) {
        var legs: [Route.Leg] = []
        var heading = 312.0
        var rng = SplitMix(seed: 1000 + seed)
        while legs.reduce(0, { $0 + $1.duration + $1.turn }) < seconds {
            heading += (rng.uniform() < 0.5 ? -1 : 1) * (20 + 70 * rng.uniform())
            // Whole seconds, so that the last fix falls where the route ends.
            let turn = (10 + 10 * rng.uniform()).rounded()
            let duration = (2 + 4 * rng.uniform()).rounded()
            legs.append(Route.Leg(heading: heading, speed: 4.4 + 0.2 * rng.uniform(), duration: duration, turn: turn))
        }
        return session(
            legs,
            rate: rate,
            startSpeed: 4.5,
            noise: noise ?? (rate >= 5 ? .tenHertz : .oneHertz),
            seed: seed
        )
    }

    /// 7 laps of a 398 m track at 4.22 m/s, one fix a second: 84.4 m straights and bends of
    /// 36.3 m radius, from a standing start to a stop. Legs last whole seconds, so that the last
    /// fix falls where the route ends.
    public static func trackLaps(seed: UInt64) -> (fixes: [Fix], truth: Double) {
        let speed = 4.22
        let bend = 27.0
        let straight = 20.0
        var legs = [
            Route.Leg(heading: 0, speed: 0, duration: 10, turn: 0),
            Route.Leg(heading: 0, speed: speed, duration: straight, turn: 3),
        ]
        var heading = 0.0
        for _ in 0..<14 {
            heading += 180
            legs.append(Route.Leg(heading: heading, speed: speed, duration: straight, turn: bend))
        }
        legs.append(Route.Leg(heading: heading, speed: 0, duration: 10, turn: 3))
        return session(legs, rate: 1, noise: .oneHertz, seed: seed)
    }

    /// The fixes of `legs` at `rate`: positions off by a wandering bias of a few metres and a
    /// metre of white noise, with DOP-style `eph`, and the Doppler noised as `noise` says.
    public static func session(
        _ legs: [Route.Leg],
        rate: Double,
        startSpeed: Double = 0,
        noise: Noise,
        seed: UInt64
    ) -> (fixes: [Fix], truth: Double) {
        let (states, truth) = Route.sample(legs, rate: rate, startSpeed: startSpeed)
        var rng = SplitMix(seed: seed)
        var wander = Wander(tau: 60, sigma: 2.5)
        let frame = LocalFrame(origin: origin)
        let dt = 1 / rate
        var speedNoise = 0.0
        var crossNoise = 0.0
        let innovation = (1 - noise.speedCorrelation * noise.speedCorrelation).squareRoot()
        var fixes: [Fix] = []
        fixes.reserveCapacity(states.count)
        for (i, state) in states.enumerated() {
            let drift = wander.step(dt, &rng)
            speedNoise = noise.speedCorrelation * speedNoise + innovation * noise.speed * rng.gaussian()
            let moving = state.speed > 0.3
            var course = state.heading + noise.course * rng.gaussian()
            var speed = max(0, state.speed + speedNoise)
            if noise.vector {
                crossNoise = noise.speedCorrelation * crossNoise + innovation * noise.speed * rng.gaussian()
                let east = state.velocityEast + speedNoise
                let north = state.velocityNorth + crossNoise
                speed = (east * east + north * north).squareRoot()
                course = atan2(east, north) * 180 / Double.pi
            }
            let eph = 15 + 10 * rng.uniform()
            fixes.append(
                Fix(
                    mode: 3,
                    time: start.adding(Double(i) * dt),
                    position: frame.unproject(
                        LocalPoint(
                            east: state.east + drift.east + rng.gaussian(),
                            north: state.north + drift.north + rng.gaussian()
                        )
                    ),
                    errorEast: eph / 1.3,
                    errorNorth: eph / 1.3,
                    horizontalError: eph,
                    speed: speed,
                    track: moving ? (course + 720).truncatingRemainder(dividingBy: 360) : nil,
                    speedError: 0.77
                )
            )
        }
        return (fixes, truth)
    }

    /// The receiver's own speed integrated over the epochs (trapezoids): the reference the core's
    /// distance is measured against.
    public static func dopplerIntegral(_ fixes: [Fix]) -> Double {
        var total = 0.0
        for (previous, fix) in zip(fixes, fixes.dropFirst()) {
            if let t0 = previous.time, let t1 = fix.time, let v0 = previous.speed, let v1 = fix.speed {
                total += 0.5 * (v0 + v1) * t1.since(t0)
            }
        }
        return total
    }
}
