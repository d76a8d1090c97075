import Elevation
import Energy
import Foundation
import Harness
import TrackCore

/// `HonestReceiver`'s routes over hills: each fix given the altitude a receiver reports on a
/// profile of true altitudes along the way, and a barometer's pressures beside them.
///
/// A receiver's altitude error wanders as its position's does but further (VDOP is about 1.5
/// HDOP): a bias of 6 m over two minutes and 2 m of white noise, with a DOP-style `epv` of 1.6
/// `eph`. The barometer reads the standard atmosphere's pressure at the true altitude under a
/// sea-level pressure 1 kPa above standard (the level GPS must teach it, 83 m) falling with the
/// weather by 1 hPa an hour (8.5 m an hour of apparent climb), noised by 1.5 Pa (12 cm).
public enum ElevatedReceiver {
    /// True altitude (m) at a distance (m) along the way.
    public struct Profile: Sendable {
        public var name: String
        public var altitude: @Sendable (Double) -> Double

        public init(name: String, altitude: @escaping @Sendable (Double) -> Double) {
            self.name = name
            self.altitude = altitude
        }

        public static let flat = Profile(name: "flat") { _ in 12 }
        /// Rolling hills: 8 m over 600 m and 4 m over 230 m.
        public static let rolling = Profile(name: "rolling") { d in
            30 + 8 * sin(2 * .pi * d / 600) + 4 * sin(2 * .pi * d / 230)
        }
        /// One hill of 80 m: up over the first 4 km, down after.
        public static let oneHill = Profile(name: "one hill, 80 m") { d in
            20 + 40 * (1 - cos(.pi * min(d, 8000) / 4000))
        }
        /// A trail: 10 % up for 1.2 km (120 m), then down the same.
        public static let steep = Profile(name: "steep trail, 120 m") { d in
            let x = d.truncatingRemainder(dividingBy: 2400)
            return 200 + 0.1 * (x < 1200 ? x : 2400 - x)
        }
    }

    public struct Session: Sendable {
        public var fixes: [Fix]
        /// The true distance along the way at each fix (m), and the profile it climbs.
        public var along: [Double]
        public var profile: Profile
        /// (GPS time, kPa), one a second.
        public var pressures: [(time: GPSTime, kilopascal: Double)]
        public var gain: Double
        public var loss: Double
    }

    /// The gain and loss of `profile` over the way `along` covers, at every metre.
    public static func truth(_ profile: Profile, along: [Double]) -> (gain: Double, loss: Double) {
        var gain = 0.0
        var loss = 0.0
        guard let end = along.last else { return (0, 0) }
        var previous = profile.altitude(0)
        for d in stride(from: 1.0, through: end, by: 1) {
            let h = profile.altitude(d)
            if h > previous { gain += h - previous } else { loss += previous - h }
            previous = h
        }
        return (gain, loss)
    }

    public static func session(_ draw: HonestReceiver.Draw, profile: Profile, seed: UInt64) -> Session {
        var rng = SplitMix(seed: 9000 + seed)
        var bias = Wander(tau: 120, sigma: 6)
        var fixes = draw.fixes
        var pressures: [(GPSTime, Double)] = []
        let start = fixes.first?.time ?? HonestReceiver.start
        var previous: GPSTime?
        for i in fixes.indices {
            let truth = profile.altitude(draw.along[min(i, draw.along.count - 1)])
            guard let time = fixes[i].time else { continue }
            let dt = previous.map { time.since($0) } ?? 1
            previous = time
            let error = bias.step(dt, &rng).east + 2 * rng.gaussian()
            fixes[i].altitude = truth + error
            fixes[i].verticalError = fixes[i].horizontalError.map { 1.6 * $0 }
            // The barometer: one reading a second, at the whole seconds.
            let elapsed = time.since(start)
            if abs(elapsed - elapsed.rounded()) < 1e-6 {
                let seaLevel = BarometricAltitude.standardSeaLevel + 1.0 - 0.1 * elapsed / 3600
                let kilopascal =
                    BarometricAltitude.pressure(altitude: truth, seaLevel: seaLevel) + 0.0015 * rng.gaussian()
                pressures.append((time, kilopascal))
            }
        }
        let (gain, loss) = truth(profile, along: draw.along)
        return Session(
            fixes: fixes,
            along: draw.along,
            profile: profile,
            pressures: pressures.map { (time: $0.0, kilopascal: $0.1) },
            gain: gain,
            loss: loss
        )
    }

    /// The session replayed through the core, each second's pressure after its fix when
    /// `barometer` says so.
    public static func replayed(
        _ session: Session,
        activity: Activity,
        barometer: Bool,
        settings: ElevationTrack.Settings = .init(),
        energy: EnergySettings? = nil
    ) -> TrackSession {
        var track = TrackSession(activity: activity, elevation: settings, energy: energy)
        var next = 0
        for fix in session.fixes {
            _ = track.ingest(fix)
            guard barometer, let time = fix.time else { continue }
            while next < session.pressures.count, session.pressures[next].time <= time {
                track.pressure(kilopascal: session.pressures[next].kilopascal, at: session.pressures[next].time)
                next += 1
            }
        }
        return track
    }

    /// A route and the profile it is run over.
    public struct Course: Sendable {
        public var name: String
        public var route: HonestRoute
        public var profile: Profile
    }

    public static let courses: [Course] = [
        Course(name: "city, flat", route: HonestRoute.named("city, two lights")!, profile: .flat),
        Course(name: "tempo, rolling", route: HonestRoute.named("tempo, 1 Hz")!, profile: .rolling),
        Course(name: "an hour, one hill", route: HonestRoute.named("an hour, 1 Hz")!, profile: .oneHill),
        Course(name: "walk, steep trail", route: HonestRoute.named("walk, four stops")!, profile: .steep),
        Course(
            name: "standing, 5 min",
            route: HonestRoute(name: "standing", activity: .walking) { seed in
                HonestReceiver.session(
                    [Route.Leg(heading: 0, speed: 0, duration: 300, turn: 0)],
                    rate: 1,
                    noise: .oneHertz,
                    seed: seed
                )
            },
            profile: .rolling
        ),
    ]
}

extension ElevatedReceiver.Session {
    /// The energy `model` gives the true way: each interval between fixes at its true speed and
    /// grade, moving intervals only (faster than `movingAbove` m/s), in joules.
    public func trueEnergy(_ model: EnergyModel, carriage: Carriage, movingAbove: Double = 0.3) -> Double {
        var joules = 0.0
        for i in 1..<min(fixes.count, along.count) {
            guard let t0 = fixes[i - 1].time, let t1 = fixes[i].time else { continue }
            let dt = t1.since(t0)
            let run = along[i] - along[i - 1]
            guard dt > 0, run / dt > movingAbove else { continue }
            let grade = (profile.altitude(along[i]) - profile.altitude(along[i - 1])) / run
            joules += model.power(speed: run / dt, grade: grade, carriage: carriage) * dt
        }
        return joules
    }
}
