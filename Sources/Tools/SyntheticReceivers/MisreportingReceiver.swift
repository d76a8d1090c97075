import Foundation
import Harness
import TrackCore

/// Receivers whose error estimates or Doppler lie, as real hardware does (docs/hardware.md).
public enum MisreportingReceiver {
    public static let origin = GeoPoint(latitude: 46.4983, longitude: 7.5674)
    public static let start = GPSTime(seconds: 1_118_327_684)

    /// An old SiRF-II (gpsd JSON from NMEA): a constant `epx`/`epy` of 287 m on every fix, an `eps`
    /// gpsd derives from it (574 m/s), and an `eph` of 20-40 m on only every other epoch. Its
    /// positions and Doppler are good: the wearer stands 20 s, walks about 48 m at 1.1-1.3 m/s
    /// (south-southwest, back north, then east) and stands again.
    public static func sirfWalk(seed: UInt64 = 3) -> (fixes: [Fix], truth: Double) {
        let legs = [
            Route.Leg(heading: 190, speed: 0, duration: 20, turn: 0),
            Route.Leg(heading: 190, speed: 1.2, duration: 13, turn: 2),
            Route.Leg(heading: 0, speed: 1.25, duration: 10, turn: 3),
            Route.Leg(heading: 90, speed: 1.15, duration: 10, turn: 2),
            Route.Leg(heading: 90, speed: 0, duration: 20, turn: 2),
        ]
        let (states, truth) = Route.sample(legs)
        var rng = SplitMix(seed: seed)
        var wander = Wander(tau: 60, sigma: 3)
        let frame = LocalFrame(origin: origin)
        var fixes: [Fix] = []
        for (i, state) in states.enumerated() {
            let drift = wander.step(1, &rng)
            let position = frame.unproject(
                LocalPoint(
                    east: state.east + drift.east + 1.5 * rng.gaussian(),
                    north: state.north + drift.north + 1.5 * rng.gaussian()
                )
            )
            let moving = state.speed > 0.3
            let speed = moving ? state.speed + 0.08 * rng.gaussian() : abs(0.06 * rng.gaussian())
            let track = moving ? state.heading + 4 * rng.gaussian() : 360 * rng.uniform()
            fixes.append(
                Fix(
                    mode: 3,
                    time: start.adding(Double(i)),
                    position: position,
                    errorEast: 287.0,
                    errorNorth: 287.0,
                    horizontalError: i % 2 == 0 ? 20 + 20 * rng.uniform() : nil,
                    speed: speed,
                    track: (track + 360).truncatingRemainder(dividingBy: 360),
                    speedError: 574.0
                )
            )
        }
        return (fixes, truth)
    }

    /// A phone's modem GNSS (Quectel class, 1 Hz) lying on a desk: positions wander 50-100 m,
    /// `eph` 20-80 m, Doppler 0.5-2 m/s with a course that jumps at random, a few 10-60 m/s spikes.
    public static func phoneOnDesk(seconds: Int = 120, seed: UInt64 = 11) -> [Fix] {
        var rng = SplitMix(seed: seed)
        var wander = Wander(tau: 20, sigma: 30)
        let frame = LocalFrame(origin: origin)
        var fixes: [Fix] = []
        for i in 0..<seconds {
            let drift = wander.step(1, &rng)
            let eph = 20 + 60 * rng.uniform()
            let spike = i % 37 == 19
            fixes.append(
                Fix(
                    mode: 3,
                    time: start.adding(Double(i)),
                    position: frame.unproject(
                        LocalPoint(east: drift.east + 6 * rng.gaussian(), north: drift.north + 6 * rng.gaussian())
                    ),
                    errorEast: eph / 1.25,
                    errorNorth: eph / 1.25,
                    horizontalError: eph,
                    speed: spike ? 10 + 50 * rng.uniform() : 0.5 + 1.5 * rng.uniform(),
                    track: 360 * rng.uniform()
                )
            )
        }
        return fixes
    }

    /// A city run of about 4.9 km: blocks with corners, an out-and-back turnaround, two
    /// traffic-light stops, and multipath bursts where the receiver flags its positions with a
    /// large `eph` (the gate rejects them) while its Doppler stays good. Bursts fall on a corner, on
    /// the turnaround and across a stop, where a straight chord is shortest.
    public static func cityRun(seed: UInt64 = 5) -> (fixes: [Fix], truth: Double) {
        let speed = 3.2
        let legs = [
            Route.Leg(heading: 90, speed: speed, duration: 120, turn: 0),
            Route.Leg(heading: 0, speed: speed, duration: 90),
            Route.Leg(heading: 0, speed: 0, duration: 30),  // a light
            Route.Leg(heading: 0, speed: speed, duration: 60),
            Route.Leg(heading: 90, speed: speed, duration: 150),
            Route.Leg(heading: 180, speed: speed, duration: 100),
            Route.Leg(heading: 0, speed: speed, duration: 100, turn: 5),  // turnaround
            Route.Leg(heading: 270, speed: speed, duration: 140),
            Route.Leg(heading: 0, speed: speed, duration: 120),
            Route.Leg(heading: 0, speed: 0, duration: 35),  // a light
            Route.Leg(heading: 0, speed: speed, duration: 60),
            Route.Leg(heading: 90, speed: speed, duration: 200),
            Route.Leg(heading: 180, speed: speed, duration: 160),
            Route.Leg(heading: 270, speed: speed, duration: 180),
        ]
        let (states, truth) = Route.sample(legs)
        // Bursts in seconds from the start: the first corner, across the first light's restart,
        // the turnaround, and two corners later on.
        let bursts: [ClosedRange<Int>] = [117...126, 243...251, 563...573, 668...676, 1032...1040, 1235...1243]
        var rng = SplitMix(seed: seed)
        var wander = Wander(tau: 90, sigma: 2.5)
        let frame = LocalFrame(origin: origin)
        var fixes: [Fix] = []
        var eph = 18.0
        for (i, state) in states.enumerated() {
            if i % 120 == 0 { eph = 15 + 10 * rng.uniform() }
            let drift = wander.step(1, &rng)
            var east = state.east + drift.east + 1.2 * rng.gaussian()
            var north = state.north + drift.north + 1.2 * rng.gaussian()
            var reported = eph
            if bursts.contains(where: { $0.contains(i) }) {
                east += 30 + 8 * rng.gaussian()
                north -= 25 + 8 * rng.gaussian()
                reported = 90 + 40 * rng.uniform()
            }
            let moving = state.speed > 0.3
            fixes.append(
                Fix(
                    mode: 3,
                    time: start.adding(Double(i)),
                    position: frame.unproject(LocalPoint(east: east, north: north)),
                    errorEast: reported / 1.3,
                    errorNorth: reported / 1.3,
                    horizontalError: reported,
                    speed: moving ? state.speed + 0.1 * rng.gaussian() : abs(0.05 * rng.gaussian()),
                    track: moving
                        ? (state.heading + 2 * rng.gaussian() + 360).truncatingRemainder(dividingBy: 360) : nil,
                    speedError: 0.8
                )
            )
        }
        return (fixes, truth)
    }
}
