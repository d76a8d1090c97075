#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns a fix's error estimates and Doppler into what the motion filter measures, judging the
/// receiver as it goes: which fields to believe (`ErrorFieldJudge`), how noisy its positions and
/// Doppler really are (`NoiseScale`, from the filter's innovations), and whether its Doppler
/// points one way (`DopplerCoherence`).
struct MeasurementModel: Sendable {
    /// The profile's figures this model reads, and only these: the model is part of every fix's
    /// state, and a whole profile in it would be copied along.
    struct Thresholds: Sendable {
        var defaultPositionSigma: Double
        var defaultVelocitySigma: Double
        var maxSpeed: Double
        var moveSpeed: Double
        var stillSpeed: Double
        var coherenceWindow: Double
    }

    let profile: Thresholds
    /// gpsd's `epx`/`epy` are 95% bounds along one axis: 1.96 sigma.
    private let axis95 = 1.96
    /// gpsd's `eph` is a 95% radius in two dimensions: 2.45 sigma per axis.
    private let radial95 = 2.45
    private let minimumSigma = 0.5
    private let minimumVelocitySigma = 0.02
    private(set) var fields: ErrorFieldJudge
    private(set) var positionScale: NoiseScale
    private(set) var velocityScale: NoiseScale
    private(set) var coherence = DopplerCoherence()
    private var lastPositionSample: GPSTime?
    private var lastVelocitySample: GPSTime?
    /// The Doppler noise of the last fix whose direction was observed.
    private var directionSigma = 0.0

    init(profile: ActivityProfile) {
        self.profile = Thresholds(
            defaultPositionSigma: profile.defaultPositionSigma,
            defaultVelocitySigma: profile.defaultVelocitySigma,
            maxSpeed: profile.maxSpeed,
            moveSpeed: profile.moveSpeed,
            stillSpeed: profile.stillSpeed,
            coherenceWindow: profile.receiver.coherenceWindow
        )
        fields = ErrorFieldJudge(profile: profile)
        let judging = profile.receiver
        let range = judging.minNoiseScale...judging.maxNoiseScale
        positionScale = NoiseScale(window: judging.noiseWindow, range: range, clip: profile.outlierThreshold)
        velocityScale = NoiseScale(window: judging.noiseWindow, range: range, clip: profile.outlierThreshold)
    }

    /// What one fix measures, worked out once: its reported and scaled noise, and its Doppler
    /// velocity vector (with its length, the speed) when it has a speed and a course.
    struct Measurement: Sendable {
        var reported: MotionFilter.Noise
        var noise: MotionFilter.Noise
        var direction: LocalPoint?
        var speed: Double
    }

    /// The fix with the error fields not to be believed removed; see `ErrorFieldJudge`.
    @inline(__always)
    mutating func judge(_ fix: Fix) -> BelievedErrors { fields.judge(fix) }

    @inline(__always)
    func measurement(for fix: Fix, _ errors: BelievedErrors) -> Measurement {
        let reported = reportedNoise(for: errors)
        let p = positionScale.factor
        let noise = MotionFilter.Noise(
            east: max(reported.east * p, minimumSigma),
            north: max(reported.north * p, minimumSigma),
            velocity: max(reported.velocity * velocityScale.factor, minimumVelocitySigma)
        )
        var direction: LocalPoint?
        var speed = 0.0
        if let doppler = fix.speed, let track = fix.track, doppler.isFinite, track.isFinite, doppler >= 0 {
            let radians = track * Double.pi / 180
            direction = LocalPoint(east: doppler * sin(radians), north: doppler * cos(radians))
            speed = doppler
        }
        return Measurement(reported: reported, noise: noise, direction: direction, speed: speed)
    }

    /// The noise the believed fields give, before what was learnt about the receiver.
    @inline(__always)
    func reportedNoise(for errors: BelievedErrors) -> MotionFilter.Noise {
        var east = profile.defaultPositionSigma
        var north = profile.defaultPositionSigma
        if let ex = errors.east, let ey = errors.north, ex.isFinite, ey.isFinite, ex > 0, ey > 0 {
            east = ex / axis95
            north = ey / axis95
        } else if let eph = errors.horizontal, eph.isFinite, eph > 0 {
            east = eph / radial95
            north = east
        }
        var velocity = profile.defaultVelocitySigma
        if let eps = errors.speed, eps.isFinite, eps > 0 {
            // Not capped: a receiver's `eps` tripling as its fix degrades is information, and the
            // learnt scale turns its size into the real noise.
            velocity = max(eps / axis95, 0.05)
        }
        return .init(east: max(east, minimumSigma), north: max(north, minimumSigma), velocity: velocity)
    }

    /// Learns from a position innovation (before the update) how noisy the receiver's positions are.
    mutating func learnPosition(_ innovation: MotionFilter.Innovation, _ measurement: Measurement, at time: GPSTime) {
        let reported = measurement.reported
        let used = measurement.noise
        let dt = lastPositionSample.map { time.since($0) } ?? 1
        lastPositionSample = time
        positionScale.observe(
            innovation,
            reported: LocalPoint(east: reported.east * reported.east, north: reported.north * reported.north),
            used: LocalPoint(east: used.east * used.east, north: used.north * used.north),
            dt: dt
        )
    }

    /// Learns from a Doppler innovation how noisy the receiver's Doppler is.
    mutating func learnVelocity(_ innovation: MotionFilter.Innovation, _ measurement: Measurement, at time: GPSTime) {
        let reported = measurement.reported.velocity * measurement.reported.velocity
        let used = measurement.noise.velocity * measurement.noise.velocity
        let dt = lastVelocitySample.map { time.since($0) } ?? 1
        lastVelocitySample = time
        velocityScale.observe(
            innovation,
            reported: LocalPoint(east: reported, north: reported),
            used: LocalPoint(east: used, north: used),
            dt: dt
        )
    }

    /// Feeds the Doppler's direction to the coherence judgement; a fix without a course has none.
    mutating func observeDirection(_ measurement: Measurement, at time: GPSTime?) {
        guard let time, let direction = measurement.direction, measurement.speed <= profile.maxSpeed else { return }
        directionSigma = measurement.noise.velocity
        coherence.observe(direction, speed: measurement.speed, at: time, window: profile.coherenceWindow)
    }

    /// How consistently the Doppler has pointed one way lately; nil when it is too slow to tell.
    @inline(__always)
    func coherence(at time: GPSTime) -> Double? {
        coherence.coherence(at: time, minSpeed: profile.stillSpeed, window: profile.coherenceWindow)
    }

    /// The Doppler's mean speed over the coherence window when it stands well clear of the
    /// receiver's learnt Doppler noise: someone still moving, even while turning around.
    @inline(__always)
    func sustainedDopplerSpeed(at time: GPSTime) -> Double? {
        guard let speed = coherence.meanSpeed(at: time, window: profile.coherenceWindow) else { return nil }
        return speed > 2 * directionSigma ? speed : nil
    }

    /// Doppler velocity east/north with its 1-sigma noise, when the fix carries one.
    ///
    /// A small speed is believed only while the filter does not already think the wearer fast
    /// (`predictedSpeed`): receivers send a stale `speed: 0` (with or without a course) while they
    /// move, and nobody stops from a run within one fix. gpsd omits `track` when the receiver barely
    /// moves; a small speed without a course is then measured as standing still, with the speed
    /// itself as extra uncertainty.
    @inline(__always)
    func velocity(
        for fix: Fix,
        _ measurement: Measurement,
        predictedSpeed: Double
    ) -> (velocity: LocalPoint, sigma: Double)? {
        guard let speed = fix.speed, speed.isFinite, speed >= 0 else { return nil }
        if speed < profile.moveSpeed {
            return predictedSpeed >= 2 * profile.moveSpeed ? nil : stopVelocity(for: fix, measurement)
        }
        return measurement.direction.map { ($0, measurement.noise.velocity) }
    }

    /// A small speed as a measurement: its course if gpsd gave one, else standing with the speed as
    /// extra uncertainty. `velocity(for:)` sets it aside while the filter thinks the wearer fast;
    /// the manoeuvre test then takes it as a stop only when the position has stopped too: a stale
    /// `speed: 0` comes with positions that go on, which pass the gate without it.
    @inline(__always)
    func stopVelocity(for fix: Fix, _ measurement: Measurement) -> (velocity: LocalPoint, sigma: Double)? {
        guard let speed = fix.speed, speed.isFinite, speed >= 0, speed < profile.moveSpeed else { return nil }
        let sigma = measurement.noise.velocity
        if let direction = measurement.direction { return (direction, sigma) }
        return (LocalPoint(east: 0, north: 0), (speed * speed + sigma * sigma).squareRoot())
    }

    /// True unless a Doppler measurement is there and within twice its own noise of zero.
    @inline(__always)
    func isSignificant(_ doppler: (velocity: LocalPoint, sigma: Double)?) -> Bool {
        guard let doppler else { return true }
        let v = doppler.velocity
        return (v.east * v.east + v.north * v.north).squareRoot() > 2 * doppler.sigma
    }
}
