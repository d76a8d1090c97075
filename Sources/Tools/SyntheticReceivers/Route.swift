import Foundation
import Harness
import TrackCore

/// A route as heading and speed over time, integrated finely so its true length is known:
/// corners take seconds, stops ramp down and up, as a runner's do.
public struct Route {
    /// One stretch: turn to `heading` (degrees) over `turn` seconds, then hold `speed` for `duration`.
    public struct Leg: Sendable {
        public var heading: Double
        public var speed: Double
        public var duration: Double
        public var turn: Double

        public init(heading: Double, speed: Double, duration: Double, turn: Double = 3) {
            self.heading = heading
            self.speed = speed
            self.duration = duration
            self.turn = turn
        }
    }

    public struct State: Sendable {
        public var east: Double
        public var north: Double
        public var velocityEast: Double
        public var velocityNorth: Double
        public var speed: Double { (velocityEast * velocityEast + velocityNorth * velocityNorth).squareRoot() }
        /// Course over ground in degrees from north, as gpsd's `track`.
        public var heading: Double {
            let degrees = atan2(velocityEast, velocityNorth) * 180 / Double.pi
            return degrees < 0 ? degrees + 360 : degrees
        }
    }

    /// The state at every whole `1 / rate` second, and the true length travelled; from standing
    /// unless `startSpeed` says the wearer passes the start already moving.
    public static func sample(
        _ legs: [Leg],
        rate: Double = 1,
        startHeading: Double? = nil,
        startSpeed: Double = 0
    ) -> (states: [State], length: Double) {
        let step = 0.01
        var heading = startHeading ?? legs.first?.heading ?? 0
        var speed = startSpeed
        var east = 0.0
        var north = 0.0
        var length = 0.0
        var t = 0.0
        var states: [State] = []
        var nextSample = 0.0
        func record() {
            let radians = heading * Double.pi / 180
            states.append(
                State(
                    east: east,
                    north: north,
                    velocityEast: speed * sin(radians),
                    velocityNorth: speed * cos(radians)
                )
            )
        }
        for leg in legs {
            let startHeading = heading
            var turnBy = (leg.heading - startHeading).truncatingRemainder(dividingBy: 360)
            if turnBy > 180 { turnBy -= 360 }
            if turnBy < -180 { turnBy += 360 }
            let startSpeed = speed
            let total = leg.turn + leg.duration
            var local = 0.0
            while local < total - step / 2 {
                if t >= nextSample - 1e-9 {
                    record()
                    nextSample += 1 / rate
                }
                let f = min(1, local / max(leg.turn, step))
                heading = startHeading + turnBy * f
                speed = startSpeed + (leg.speed - startSpeed) * f
                let radians = heading * Double.pi / 180
                east += speed * sin(radians) * step
                north += speed * cos(radians) * step
                length += speed * step
                local += step
                t += step
            }
        }
        record()
        return (states, length)
    }
}

/// A slowly wandering error (first-order Gauss-Markov): what makes a still receiver drift.
public struct Wander {
    public var east = 0.0
    public var north = 0.0
    /// Correlation time (s) and the steady-state 1-sigma size (m).
    public var tau: Double
    public var sigma: Double

    public init(tau: Double, sigma: Double) {
        self.tau = tau
        self.sigma = sigma
    }

    public mutating func step(_ dt: Double, _ rng: inout SplitMix) -> (east: Double, north: Double) {
        let a = exp(-dt / tau)
        let kick = sigma * (1 - a * a).squareRoot()
        east = a * east + kick * rng.gaussian()
        north = a * north + kick * rng.gaussian()
        return (east, north)
    }
}
