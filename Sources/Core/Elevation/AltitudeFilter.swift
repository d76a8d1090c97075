/// A Kalman filter of altitude: the altitude `h` and its rate `v` (a random acceleration), and
/// when a barometer is read, the offset `b` of its altitude from the true one (a random walk: the
/// day's sea-level pressure, drifting with the weather).
///
/// GPS measures `h`; its altitude error is not white but wanders over a minute or two, so each fix
/// is taken as worth `1 / (1 + 2 tau / dt)` of an independent one (`gpsCorrelation`): GPS then
/// pins the level over minutes, and a barometer, precise in its differences, gives the shape. A
/// barometer measures `h + b`.
public struct AltitudeFilter: Sendable, Equatable {
    public struct Settings: Sendable, Equatable {
        /// Spectral density of the vertical acceleration with a barometer, m^2/s^3: it follows
        /// the barometer's shape closely.
        public var acceleration: Double
        /// The same on GPS alone: smoothed as far as a hill allows, the receiver's error being
        /// most of what its altitude moves by.
        public var gpsAcceleration: Double
        /// Correlation time of a receiver's altitude error, seconds.
        public var gpsCorrelation: Double
        /// 1-sigma of a barometer's altitude, metres (sensor noise, wind and the body's motion).
        public var barometerSigma: Double
        /// Spectral density of the barometer's offset (the weather), m^2/s: 0.02 is about 8.5 m
        /// (1 hPa) an hour.
        public var weather: Double
        /// A measurement this many sigmas off the prediction (squared) is set aside.
        public var gate: Double

        public init(
            acceleration: Double = 0.1,
            gpsAcceleration: Double = 0.01,
            gpsCorrelation: Double = 60,
            barometerSigma: Double = 0.4,
            weather: Double = 0.02,
            gate: Double = 25
        ) {
            self.acceleration = acceleration
            self.gpsAcceleration = gpsAcceleration
            self.gpsCorrelation = gpsCorrelation
            self.barometerSigma = barometerSigma
            self.weather = weather
            self.gate = gate
        }
    }

    public enum Verdict: Sendable, Equatable {
        case used
        /// Beyond the gate: set aside, the state kept.
        case setAside
    }

    public let settings: Settings
    /// Altitude (m), its rate (m/s), the barometer's offset (m).
    public private(set) var h: Double
    public private(set) var v: Double
    public private(set) var b: Double
    /// The covariance of (h, v, b), row-major.
    private var p: Covariance
    public private(set) var time: Double
    /// Whether a barometer has been read: `b` means something only then.
    public private(set) var hasBarometer = false

    /// Starts from one GPS altitude.
    public init(altitude: Double, sigma: Double, at time: Double, settings: Settings = Settings()) {
        self.settings = settings
        h = altitude
        v = 0
        b = 0
        p = Covariance(hh: sigma * sigma, vv: 0.25, bb: 0)
        self.time = time
    }

    public var altitudeSigma: Double { p.hh.squareRoot() }
    public var offsetSigma: Double { p.bb.squareRoot() }

    /// Predicts to `time`; a time behind the filter's is taken as now.
    public mutating func predict(to now: Double) {
        let dt = now - time
        guard dt > 0, dt.isFinite else { return }
        time = now
        h += v * dt
        // P = F P F' + Q for F = [[1 dt 0] [0 1 0] [0 0 1]].
        var n = p
        n.hh = p.hh + 2 * dt * p.hv + dt * dt * p.vv
        n.hv = p.hv + dt * p.vv
        n.hb = p.hb + dt * p.vb
        let q = hasBarometer ? settings.acceleration : settings.gpsAcceleration
        n.hh += q * dt * dt * dt / 3
        n.hv += q * dt * dt / 2
        n.vv += q * dt
        if hasBarometer { n.bb += settings.weather * dt }
        p = n
    }

    /// A GPS altitude with its 1-sigma; `dt` is the time its fix covers, for its correlation.
    public mutating func gps(_ altitude: Double, sigma: Double, at now: Double, dt: Double) -> Verdict {
        predict(to: now)
        let worth = 1 + 2 * settings.gpsCorrelation / max(dt, 0.05)
        let r = sigma * sigma
        // The gate judges the fix by its own sigma; the update weighs it by what it is worth.
        let innovation = altitude - h
        guard innovation * innovation <= settings.gate * (p.hh + r) else { return .setAside }
        update(innovation, hCoefficient: 1, bCoefficient: 0, r: r * worth)
        return .used
    }

    /// A barometric altitude (the standard atmosphere's, of the pressure read).
    public mutating func barometer(_ altitude: Double, at now: Double) -> Verdict {
        predict(to: now)
        if !hasBarometer { resetOffset(barometer: altitude) }
        let r = settings.barometerSigma * settings.barometerSigma
        let innovation = altitude - (h + b)
        let s = p.hh + 2 * p.hb + p.bb + r
        guard innovation * innovation <= settings.gate * s else { return .setAside }
        update(innovation, hCoefficient: 1, bCoefficient: 1, r: r)
        return .used
    }

    /// Takes the barometer's offset as unknown again, from a reading of it: its first, or one
    /// after the readings stopped agreeing with the altitude (a sensor reset, a unit changed).
    public mutating func resetOffset(barometer altitude: Double) {
        hasBarometer = true
        b = altitude - h
        p.bb = 1e6
        p.hb = 0
        p.vb = 0
    }

    /// Takes the altitude as unknown again, from a GPS altitude: after fixes that stopped agreeing
    /// with it.
    public mutating func resetAltitude(_ altitude: Double, sigma: Double) {
        let baroLevel = h + b
        h = altitude
        v = 0
        p = Covariance(hh: sigma * sigma, vv: 0.25, bb: hasBarometer ? 1e6 : 0)
        if hasBarometer { b = baroLevel - h }
    }

    /// The update for a measurement `H x` with `H = [hCoefficient 0 bCoefficient]`.
    private mutating func update(_ innovation: Double, hCoefficient a: Double, bCoefficient c: Double, r: Double) {
        // P H'
        let ph = a * p.hh + c * p.hb
        let pv = a * p.hv + c * p.vb
        let pb = a * p.hb + c * p.bb
        let s = a * ph + c * pb + r
        guard s > 0, s.isFinite else { return }
        let kh = ph / s
        let kv = pv / s
        let kb = pb / s
        h += kh * innovation
        v += kv * innovation
        b += kb * innovation
        // P = P - K S K'
        p.hh -= kh * kh * s
        p.hv -= kh * kv * s
        p.hb -= kh * kb * s
        p.vv -= kv * kv * s
        p.vb -= kv * kb * s
        p.bb -= kb * kb * s
    }
}

/// A symmetric 3 x 3 covariance of (h, v, b).
struct Covariance: Sendable, Equatable {
    var hh: Double
    var hv = 0.0
    var hb = 0.0
    var vv: Double
    var vb = 0.0
    var bb: Double

    init(hh: Double, vv: Double, bb: Double) {
        self.hh = hh
        self.vv = vv
        self.bb = bb
    }
}
