import Foundation
import Harness
import TrackCore

/// A receiver whose numbers are honest, noised as the simulated sessions of data/gps are, on routes of
/// their shapes: one session is one draw of the noise, so a figure within that noise needs many.
///
/// The Doppler noise is what `scripts/bench/doppler-noise.py` measures on `data/gps`
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

    /// One draw of a route's receiver: its fixes, the route's true length (m) and the seconds the
    /// wearer moved (faster than 0.3 m/s, counted at the fixes' rate).
    public struct Draw: Sendable {
        public var fixes: [Fix]
        public var truth: Double
        public var moving: Double
        /// How far along the route the wearer truly was at each fix, metres (the speeds at the
        /// fixes integrated): where a profile of the route puts its altitude.
        public var along: [Double] = []
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
    ) -> Draw {
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
    public static func trackLaps(seed: UInt64) -> Draw {
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

    /// 10 laps of a 398 m track at 3.9 m/s, one fix a second, from a 20 s standing start on a
    /// receiver still settling (its error estimate 16-18 m and more) to a 15 s stand at the finish.
    public static func trackStandingStart(seed: UInt64) -> Draw {
        let speed = 3.9
        var legs = [
            Route.Leg(heading: 0, speed: 0, duration: 20, turn: 0),
            Route.Leg(heading: 0, speed: speed, duration: 22, turn: 3),
        ]
        var heading = 0.0
        for lap in 0..<20 {
            heading += 180
            legs.append(Route.Leg(heading: heading, speed: speed, duration: lap == 19 ? 0 : 22, turn: 29))
        }
        legs.append(Route.Leg(heading: heading, speed: 0, duration: 15, turn: 3))
        return session(legs, rate: 1, noise: .oneHertz, settling: .coldStart, seed: seed)
    }

    /// A 5 km city run at 3.3-3.5 m/s with corners every 40-200 m, from a standing start on a
    /// settling receiver, stopping twice at lights (45 s and 30 s); the city's multipath makes
    /// the position's bias wander twice as far as in the open.
    public static func cityLights(seed: UInt64) -> Draw {
        var rng = SplitMix(seed: 2000 + seed)
        var legs = [Route.Leg(heading: 90, speed: 0, duration: 15, turn: 0)]
        var heading = 90.0
        var elapsed = 0.0
        var lights: [(at: Double, seconds: Double)] = [(500, 45), (1000, 30)]
        while elapsed < 1450 {
            heading += (rng.uniform() < 0.5 ? -1 : 1) * 90
            let speed = 3.3 + 0.2 * rng.uniform()
            let duration = (12 + 45 * rng.uniform()).rounded()
            legs.append(Route.Leg(heading: heading, speed: speed, duration: duration, turn: 4))
            elapsed += duration + 4
            if let light = lights.first, elapsed >= light.at {
                legs.append(Route.Leg(heading: heading, speed: 0, duration: light.seconds, turn: 4))
                lights.removeFirst()
            }
        }
        return session(
            legs,
            rate: 1,
            noise: .oneHertz,
            settling: .coldStart,
            wander: Wander(tau: 60, sigma: 5),
            seed: seed
        )
    }

    /// A 2.5 km walk at 1.3-1.5 m/s with four stops of 20-90 s (a dog's), from standing.
    public static func walkWithStops(seed: UInt64) -> Draw {
        var rng = SplitMix(seed: 3000 + seed)
        var legs = [Route.Leg(heading: 0, speed: 0, duration: 10, turn: 0)]
        var heading = 0.0
        for stop in [20.0, 90, 45, 60, 0] {
            for _ in 0..<4 {
                heading += (rng.uniform() < 0.5 ? -1 : 1) * (20 + 90 * rng.uniform())
                let duration = (20 + 60 * rng.uniform()).rounded()
                legs.append(Route.Leg(heading: heading, speed: 1.3 + 0.2 * rng.uniform(), duration: duration, turn: 4))
            }
            legs.append(Route.Leg(heading: heading, speed: 0, duration: stop == 0 ? 10 : stop, turn: 3))
        }
        return session(legs, rate: 1, noise: .oneHertz, seed: seed)
    }

    /// A receiver that has just found its position: an extra error of `offset` metres in a random
    /// direction at the first fix, shrinking with time constant `tau` seconds, its error estimate
    /// raised by as much.
    public struct Settling: Sendable {
        public var offset: Double
        public var tau: Double

        public init(offset: Double, tau: Double) {
            self.offset = offset
            self.tau = tau
        }

        /// A few seconds after a fix from cold: 15 m off, settling over half a minute.
        public static let coldStart = Settling(offset: 15, tau: 30)
    }

    /// The fixes of `legs` at `rate`: positions off by a wandering bias of a few metres (`wander`)
    /// and a metre of white noise, with DOP-style `eph`, and the Doppler noised as `noise` says;
    /// with `settling`, a receiver still settling from its first fix.
    public static func session(
        _ legs: [Route.Leg],
        rate: Double,
        startSpeed: Double = 0,
        noise: Noise,
        settling: Settling? = nil,
        wander start: Wander = Wander(tau: 60, sigma: 2.5),
        seed: UInt64
    ) -> Draw {
        let (states, truth) = Route.sample(legs, rate: rate, startSpeed: startSpeed)
        var rng = SplitMix(seed: seed)
        var wander = start
        var settleRng = SplitMix(seed: 4000 + seed)  // apart, so that the other routes' draws stay as they were
        let settleDirection = 2 * Double.pi * settleRng.uniform()
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
            let settle = settling.map { $0.offset * exp(-Double(i) * dt / $0.tau) } ?? 0
            let eph = 15 + 10 * rng.uniform() + settle
            fixes.append(
                Fix(
                    mode: 3,
                    time: self.start.adding(Double(i) * dt),
                    position: frame.unproject(
                        LocalPoint(
                            east: state.east + drift.east + settle * sin(settleDirection) + rng.gaussian(),
                            north: state.north + drift.north + settle * cos(settleDirection) + rng.gaussian()
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
        let moving = Double(states.dropFirst().filter { $0.speed > 0.3 }.count) * dt
        var along = [0.0]
        along.reserveCapacity(states.count)
        for (previous, state) in zip(states, states.dropFirst()) {
            along.append(along[along.count - 1] + 0.5 * (previous.speed + state.speed) * dt)
        }
        return Draw(fixes: fixes, truth: truth, moving: moving, along: Array(along.prefix(fixes.count)))
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
