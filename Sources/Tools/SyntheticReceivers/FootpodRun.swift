import Harness
import TrackCore

/// A run on a known route with a GPS receiver and a footpod beside it: one fix a second (none
/// inside `blackout`, a tunnel), and a footpod reading half a second after each fix whose count is
/// `scale` times the true distance and whose speed is a little noisy (1 % per reading).
public struct FootpodRun: Sendable {
    public struct Epoch: Sendable {
        /// Nil inside the blackout.
        public var fix: Fix?
        /// The footpod's cumulative count (m) and speed (m/s) as it reports them, and when.
        public var footpodTotal: Double
        public var footpodSpeed: Double
        public var footpodReceivedAt: Double
        /// The true distance run so far (m).
        public var truth: Double
    }

    public static let origin = GeoPoint(latitude: 48.137, longitude: 11.575)
    public static let t0 = 1_750_000_000.0

    public let epochs: [Epoch]

    public var truth: Double { epochs.last?.truth ?? 0 }

    /// `wander`: the receiver's slowly wandering error (1-sigma, m) on top of 1 m of white noise.
    public init(
        _ legs: [Route.Leg],
        scale: Double,
        blackout: ClosedRange<Double>? = nil,
        wander: Double = 2,
        seed: UInt64 = 23
    ) {
        let frame = LocalFrame(origin: Self.origin)
        var rng = SplitMix(seed: seed)
        var drift = Wander(tau: 30, sigma: wander)
        let (states, _) = Route.sample(legs)
        var travelled = 0.0
        var epochs: [Epoch] = []
        for (k, state) in states.enumerated() {
            if k > 0 { travelled += 0.5 * (states[k - 1].speed + state.speed) }
            let error = drift.step(1, &rng)
            let east = state.east + error.east + rng.gaussian()
            let north = state.north + error.north + rng.gaussian()
            let speed = max(0, state.speed + 0.1 * rng.gaussian())
            var fix: Fix?
            if !(blackout?.contains(Double(k)) ?? false) {
                fix = Fix(
                    mode: 3,
                    time: GPSTime(seconds: Self.t0 + Double(k)),
                    position: frame.unproject(LocalPoint(east: east, north: north)),
                    errorEast: 3,
                    errorNorth: 3,
                    horizontalError: 4,
                    speed: speed,
                    track: state.heading,
                    speedError: 0.3,
                    receivedAt: 1000 + Double(k) + 0.1
                )
            }
            epochs.append(
                Epoch(
                    fix: fix,
                    footpodTotal: travelled * scale,
                    footpodSpeed: state.speed * scale * (1 + 0.01 * rng.gaussian()),
                    footpodReceivedAt: 1000 + Double(k) + 0.5,
                    truth: travelled
                )
            )
        }
        self.epochs = epochs
    }

    /// A city run: long straights at changing paces, corners, a stop at a crossing (36 min).
    public static let cityLegs: [Route.Leg] = [
        .init(heading: 90, speed: 3.0, duration: 240), .init(heading: 0, speed: 3.4, duration: 180),
        .init(heading: 270, speed: 2.9, duration: 300), .init(heading: 0, speed: 0, duration: 20, turn: 4),
        .init(heading: 0, speed: 3.2, duration: 200), .init(heading: 90, speed: 3.6, duration: 260),
        .init(heading: 180, speed: 3.1, duration: 320), .init(heading: 270, speed: 3.3, duration: 240),
    ]

    /// 5 min east, a tunnel that bends north, west and north again, 5 min east; `tunnel` is the
    /// stretch without a fix (170 s).
    public static let tunnelLegs: [Route.Leg] = [
        .init(heading: 90, speed: 3.2, duration: 300), .init(heading: 0, speed: 3.2, duration: 40),
        .init(heading: 270, speed: 3.2, duration: 80), .init(heading: 0, speed: 3.2, duration: 40),
        .init(heading: 90, speed: 3.2, duration: 300),
    ]
    public static let tunnel = 303.0...475.0
}
