import Elevation
import Energy

/// The whole path of a fix: gate, Kalman smoothing, stillness, auto-pause, gaps, metrics, track.
///
/// A value type with no clock and no I/O: the daemon and `replay` feed it the same fixes and get
/// the same decisions. Time is the fixes' own GPS time; a receive instant only judges staleness.
public struct TrackSession: Sendable {
    /// The filter and the stillness detector exist together from the first usable fix on.
    private struct Motion: Sendable {
        var filter: MotionFilter
        var stillness: StillnessDetector
        /// The speed the previous step integrated (`advance`), for the trapezoid.
        var lastSpeed: Double
    }

    public let activity: Activity
    public let profile: ActivityProfile
    private var model: MeasurementModel
    private var gate: FixGate
    private var motion: Motion?
    var autoPause: AutoPause
    var splitTracker: SplitTracker
    private var track: TrackSimplifier
    private var heartRateStats: HeartRateStats?
    private var elevationTrack: ElevationTrack
    /// Energy spent, when the wearer's body mass is known; and the moving time and distance it
    /// has costed so far.
    private var energyMeter: EnergyMeter?
    private var energyCosted = (moving: 0.0, distance: 0.0)
    /// Beats since the last split boundary, for the split's average heart rate.
    var splitBeats = (sum: 0.0, count: 0)

    public internal(set) var distance = 0.0
    /// Time covered by fixes, manual pauses once closed included.
    var covered = 0.0
    var closedPauses = 0.0
    var manualPause = ManualPause.none
    /// Closed manual pauses (s).
    public internal(set) var manualPausedTime = 0.0
    public internal(set) var autoPauseCount = 0
    public internal(set) var acceptedCount = 0
    private var rejectedCounts = [Int](repeating: 0, count: RejectReason.allCases.count)
    public private(set) var bridgedGapCount = 0
    public internal(set) var maxSpeed = 0.0
    var lastUsable: GPSTime?
    private var gpsWatch: GPSWatch
    private var outlierSince: GPSTime?
    /// When the filter began running on Doppler alone through rejected positions.
    private var coastingSince: GPSTime?
    private var impossibleStreak = 0
    /// Indoors: the footpod or treadmill that takes the place of fixes; nil outdoors.
    var indoor: IndoorStride?
    /// Outdoors: the footpod beside the GPS, which carries the distance through gaps.
    var footpod: FootpodTrail?
    /// Metres the footpod credited live since the last fix the session used (a gap under way).
    var gapCarried = 0.0
    /// The steps the wearable's accelerometer counted in this session; nil while it has said nothing.
    var stepTally: StepTally?
    /// The pedometer's last word on standing still, and when: evidence for the auto-pause.
    var motionStill: (still: Bool, at: GPSTime)?

    /// Where this session's distance comes from: `gps` outdoors.
    public var distanceSource: DistanceSource { indoor?.source ?? .gps }

    public init(
        activity: Activity,
        profile: ActivityProfile? = nil,
        heartRateZones: HeartRateZones? = nil,
        elevation: ElevationTrack.Settings = .init(),
        energy: EnergySettings? = nil
    ) {
        elevationTrack = ElevationTrack(settings: elevation)
        energyMeter = energy.map {
            EnergyMeter(
                carriage: $0.carriage,
                activity: activity.energyActivity,
                choice: ModelChoice(walking: $0.walking)
            )
        }
        let profile = profile ?? activity.profile
        self.activity = activity
        self.profile = profile
        model = MeasurementModel(profile: profile)
        gate = FixGate(profile: profile)
        autoPause = AutoPause(profile: profile)
        splitTracker = SplitTracker(length: profile.splitLength)
        track = TrackSimplifier(tolerance: profile.trackTolerance)
        heartRateStats = heartRateZones.map { HeartRateStats(zones: $0) }
        gpsWatch = GPSWatch(lostAfter: profile.gpsLostAfter, maxSilence: profile.maxForwardJump)
    }

    // MARK: Inputs

    public mutating func ingest(_ fix: Fix) -> FixOutcome {
        let outcome = ingestPosition(fix)
        if case .accepted = outcome.verdict, fix.altitude != nil { noteAltitude(of: fix) }
        if energyMeter != nil { noteEnergy() }
        return outcome
    }

    /// The moving time and distance since the energy was last costed, at the grade now.
    @inline(never)
    mutating func noteEnergy() {
        guard var meter = energyMeter else { return }
        let moving = movingTime
        let seconds = moving - energyCosted.moving
        guard seconds > 0 else {
            energyCosted = (moving, distance)
            return
        }
        meter.add(
            seconds: seconds,
            metres: distance - energyCosted.distance,
            grade: indoor == nil ? elevationTrack.grade : nil
        )
        energyCosted = (moving, distance)
        energyMeter = meter
    }

    /// An accepted fix's altitude into the elevation.
    @inline(never)
    private mutating func noteAltitude(of fix: Fix) {
        guard let altitude = fix.altitude, let time = fix.time else { return }
        let moving = isClimbing
        let distance = distance
        elevationTrack.gps(
            altitude: altitude,
            epv: fix.verticalError,
            eph: fix.horizontalError,
            at: time.seconds,
            distance: distance,
            moving: moving
        )
    }

    /// A barometer's pressure in kPa, read at `instant` on the receive clock of `Fix.receivedAt`;
    /// set aside until the fixes have tied that clock to GPS time.
    public mutating func pressure(kilopascal: Double, receivedAt instant: Double) {
        guard let time = gate.clockOffset.gpsTime(atReceive: instant) else { return }
        pressure(kilopascal: kilopascal, at: time)
    }

    /// A barometer's pressure in kPa at a GPS time (a replay's, a simulation's).
    public mutating func pressure(kilopascal: Double, at time: GPSTime) {
        elevationTrack.pressure(kilopascal, at: time.seconds, distance: distance, moving: isClimbing)
    }

    /// Moving, and neither paused nor standing: only then does an altitude's change count as climbed.
    private var isClimbing: Bool {
        guard case .none = manualPause, !autoPause.isPaused else { return false }
        return motion?.stillness.isStill == false
    }

    @inline(__always)
    private mutating func ingestPosition(_ fix: Fix) -> FixOutcome {
        var events: [TrackEvent] = []
        if let time = fix.time { noteSilence(until: time, into: &events) }
        let errors = model.judge(fix)
        let newTimeline: Bool
        let measurement: MeasurementModel.Measurement
        switch gate.judge(fix, error: errors.gating) {
        case .reject(.horizontalError):
            measurement = model.measurement(for: fix, errors)
            model.observeDirection(measurement, at: fix.time)
            if let outcome = coast(fix, measurement, events: &events) { return outcome }
            return reject(.horizontalError, events: events)
        case .reject(let reason):
            return reject(reason, events: events)
        case .accept(let isNew):
            newTimeline = isNew
            measurement = model.measurement(for: fix, errors)
            model.observeDirection(measurement, at: fix.time)
        }
        coastingSince = nil
        // The gate guarantees both.
        guard let time = fix.time, let position = fix.position else { return reject(.noFix, events: events) }
        if let regained = gpsWatch.regained(at: time, lastUsable: lastUsable) { events.append(regained) }
        if case .paused(let since) = manualPause {
            // Judged and on the time line, but no distance and no track while paused by hand.
            if since == nil { manualPause = .paused(since: time) }
            motion = nil
            acceptedCount += 1
            markUsed(time)
            return FixOutcome(verdict: .accepted(TrackPoint(time: time, position: position)), events: events)
        }

        guard var current = motion, !newTimeline else {
            if newTimeline, let lastUsable {
                closedPauses += autoPause.rebase(closingAt: lastUsable, reopeningAt: time)
                events.append(.timelineReset(at: time))
            }
            return start(at: time, position: position, fix: fix, measurement: measurement, events: events)
        }
        let dt = time.since(current.filter.time)
        if dt > profile.gapThreshold {
            return bridge(
                &current,
                to: time,
                position: position,
                fix: fix,
                measurement: measurement,
                dt: dt,
                events: events
            )
        }

        let noise = measurement.noise
        current.filter.predict(to: time)
        var doppler = model.velocity(for: fix, measurement, predictedSpeed: current.filter.speed)
        let measured = current.filter.frame.project(position)
        var mahalanobis = current.filter.mahalanobis(measured, noise: noise)
        model.learnPosition(current.filter.positionInnovation(measured), measurement, at: time)
        if mahalanobis > profile.outlierThreshold,
            let candidate = doppler ?? model.stopVelocity(for: fix, measurement),
            let widened = manoeuvre(current.filter, measured, noise: noise, doppler: candidate, dt: dt)
        {
            current.filter = widened.filter
            mahalanobis = widened.mahalanobis
            doppler = candidate
        }
        var verdict: FixOutcome.Verdict
        if mahalanobis > profile.outlierThreshold {
            let since = outlierSince ?? time
            outlierSince = since
            if time.since(since) >= profile.outlierResetAfter {
                // The receiver has agreed with itself for too long: the filter is what is wrong.
                outlierSince = nil
                motion = current
                events.append(.filterReset(at: time))
                return start(
                    at: time,
                    position: position,
                    fix: fix,
                    measurement: measurement,
                    events: events,
                    isFirst: false
                )
            }
            verdict = .rejected(.outlier)
            count(.outlier)
        } else {
            outlierSince = nil
            current.filter.updatePosition(measured, noise: noise)
            verdict = .accepted(TrackPoint(time: time, position: current.filter.position))
        }
        // A Doppler far from what positions and physics predict (a receiver stuck at `speed: 0`
        // while it moves) is dropped, as a multipath position is.
        var usedDoppler = doppler
        let soundSpeed = doppler.flatMap { soundDopplerSpeed($0, measurement, current.filter) }
        if let measured = doppler {
            if current.filter.velocityMahalanobis(measured.velocity, sigma: measured.sigma) > profile.outlierThreshold {
                usedDoppler = nil
            }
            model.learnVelocity(current.filter.velocityInnovation(measured.velocity), measurement, at: time)
        }
        if let usedDoppler { current.filter.updateVelocity(usedDoppler.velocity, sigma: usedDoppler.sigma) }
        if case .accepted = verdict { acceptedCount += 1 }
        markUsed(time)
        // Without Doppler the speed comes from noisy positions and reads high: judge standing and
        // pausing on its noise-free part, but integrate distance on the filter's estimate.
        let judged = doppler == nil ? current.filter.unbiasedSpeed : current.filter.speed
        advance(
            &current,
            to: time,
            dt: dt,
            speed: judged,
            pathSpeed: soundSpeed ?? current.filter.speed,
            significant: model.isSignificant(usedDoppler),
            measuredSpeed: plausibleDopplerSpeed(fix),
            events: &events
        )
        motion = current
        return FixOutcome(verdict: verdict, events: events)
    }

    /// A position that failed the gate, judged again with its fix's Doppler: the prediction (widened
    /// for a manoeuvre when that Doppler fails the outlier test too, by the extra acceleration that
    /// brings it to `manoeuvreGate`: a sharp corner taken at speed, which the constant-velocity
    /// model would carry straight on for seconds) and the Mahalanobis distance of the position
    /// from it once it has taken the Doppler in. Nil when either still fails: a burst of multipath
    /// does not agree with the receiver's Doppler.
    ///
    /// Judged with the Doppler because a brake or a corner moves the position along with the
    /// velocity, through their covariance: a runner who stops dead is behind the constant-velocity
    /// prediction by about the lost speed times the interval, which the position alone would call
    /// an outlier. The updates themselves run as before: position, then Doppler.
    private func manoeuvre(
        _ filter: MotionFilter,
        _ measured: LocalPoint,
        noise: MotionFilter.Noise,
        doppler: (velocity: LocalPoint, sigma: Double),
        dt: Double
    ) -> (filter: MotionFilter, mahalanobis: Double)? {
        var widened = filter
        var velocityDistance = filter.velocityMahalanobis(doppler.velocity, sigma: doppler.sigma)
        if velocityDistance > profile.outlierThreshold {
            widened.widen(towards: doppler.velocity, sigma: doppler.sigma, gate: profile.manoeuvreGate, dt: dt)
            velocityDistance = widened.velocityMahalanobis(doppler.velocity, sigma: doppler.sigma)
        }
        guard velocityDistance <= profile.outlierThreshold else { return nil }
        var informed = widened
        informed.updateVelocity(doppler.velocity, sigma: doppler.sigma)
        let mahalanobis = informed.mahalanobis(measured, noise: noise)
        guard mahalanobis <= profile.outlierThreshold else { return nil }
        return (widened, mahalanobis)
    }

    /// Runs the filter on a fix's Doppler alone when the gate rejected only its position: a
    /// multipath position does not make that epoch's Doppler wrong, and a chord across the burst
    /// would cut corners and turnarounds. Only a motion already under way is carried on: a
    /// departure from standing needs positions to confirm it (a receiver losing its fix reports
    /// Doppler it should not). Nil when the Doppler cannot be trusted either, or the filter has
    /// coasted for `receiver.dopplerCoastLimit`; the fix is then simply rejected.
    private mutating func coast(
        _ fix: Fix,
        _ measurement: MeasurementModel.Measurement,
        events: inout [TrackEvent]
    ) -> FixOutcome? {
        guard case .none = manualPause, var current = motion, !current.stillness.isStill, let time = fix.time else {
            return nil
        }
        let dt = time.since(current.filter.time)
        guard dt > 0, dt <= profile.gapThreshold else { return nil }
        if let since = coastingSince, time.since(since) > profile.receiver.dopplerCoastLimit { return nil }
        guard let speed = fix.speed, speed.isFinite, speed <= profile.maxSpeed else { return nil }
        current.filter.predict(to: time)
        guard let doppler = model.velocity(for: fix, measurement, predictedSpeed: current.filter.speed),
            current.filter.velocityMahalanobis(doppler.velocity, sigma: doppler.sigma) <= profile.outlierThreshold
        else { return nil }
        let soundSpeed = soundDopplerSpeed(doppler, measurement, current.filter)
        current.filter.updateVelocity(doppler.velocity, sigma: doppler.sigma)
        coastingSince = coastingSince ?? time
        count(.horizontalError)
        markUsed(time, counted: false)
        advance(
            &current,
            to: time,
            dt: dt,
            speed: current.filter.speed,
            pathSpeed: soundSpeed ?? current.filter.speed,
            significant: model.isSignificant(doppler),
            measuredSpeed: speed,
            events: &events
        )
        motion = current
        return FixOutcome(verdict: .rejected(.horizontalError), events: events)
    }

    /// Notices a silent receiver between fixes; `instant` is on the receive clock of `Fix.receivedAt`.
    public mutating func tick(receivedAt instant: Double) -> [TrackEvent] {
        guard let now = gate.clockOffset.gpsTime(atReceive: instant) else { return [] }
        var events: [TrackEvent] = []
        noteSilence(until: now, into: &events)
        return events
    }

    /// Stops crediting distance and time until `resumeByCommand`: the wearer paused by hand.
    ///
    /// Fixes keep their verdicts and the time line, so that GPS loss is still noticed; the pause
    /// runs from the last used fix to the first one after the resume, in GPS time.
    public mutating func pauseByCommand() {
        switch manualPause {
        case .paused: return
        case .resuming(let since):
            manualPause = .paused(since: since)
            return
        case .none: break
        }
        if let lastUsable {
            closedPauses += autoPause.close(at: lastUsable)
        }
        manualPause = .paused(since: lastUsable)
        motion = nil
    }

    /// Ends a manual pause; the next usable fix starts the filter afresh, with no distance for the pause.
    public mutating func resumeByCommand() {
        guard case .paused(let since) = manualPause else { return }
        manualPause = .resuming(since: since)
    }

    /// Adds a heart-rate sample; `time` is seconds on any monotonic clock.
    public mutating func heartRate(bpm: Int, at time: Double) {
        heartRateStats?.add(bpm: bpm, at: time)
        guard (20...250).contains(bpm) else { return }
        splitBeats.sum += Double(bpm)
        splitBeats.count += 1
    }

    // MARK: Outputs

    /// Session time from the first usable fix to the last, manual pauses included.
    public var elapsed: Double { covered + openManualPause }

    /// Auto-pauses and manual pauses.
    public var pausedTime: Double {
        closedPauses + (lastUsable.map { autoPause.openPause(until: $0) } ?? 0) + manualPausedTime + openManualPause
    }

    /// A manual pause still running, up to the last used fix.
    private var openManualPause: Double {
        switch manualPause {
        case .none: 0
        case .paused(let since?), .resuming(let since?): lastUsable.map { max(0, $0.since(since)) } ?? 0
        case .paused(nil), .resuming(nil): 0
        }
    }

    /// The GPS time of the last fix the session used.
    public var lastFixTime: GPSTime? { lastUsable }

    /// No usable fix for the profile's `gpsLostAfter`, as last judged (by a fix or a tick).
    public var isGPSLost: Bool { gpsWatch.isLost }

    public var gpsLossCount: Int { gpsWatch.losses }

    public var movingTime: Double { max(0, elapsed - pausedTime) }
    public var isAutoPaused: Bool { autoPause.isPaused }
    public var isStill: Bool { motion?.stillness.isStill ?? true }
    public var splits: [Split] { splitTracker.splits }
    public var trackPoints: [TrackPoint] { track.points }
    public var storedTrackPointCount: Int { track.storedCount }
    public var heartRate: HeartRateStats? { heartRateStats }
    /// Altitude, gain and loss, grade.
    public var elevation: ElevationTrack { elevationTrack }
    /// Energy spent so far; nil without the wearer's body mass.
    public var energy: EnergyMeter? { energyMeter }
    /// Smoothed speed now (m/s), zero while standing still.
    public var currentSpeed: Double? {
        if let indoor { return lastUsable == nil ? nil : indoor.lastSpeed }
        guard let motion else { return nil }
        return motion.stillness.isStill ? 0 : motion.filter.speed
    }

    public var rejected: [RejectReason: Int] {
        // Sized once: the engine builds this for every batch, and growing it re-hashes.
        var result = [RejectReason: Int](minimumCapacity: rejectedCounts.count { $0 > 0 })
        for (index, reason) in RejectReason.allCases.enumerated() where rejectedCounts[index] > 0 {
            result[reason] = rejectedCounts[index]
        }
        return result
    }

    public var summary: SessionSummary { SessionSummary(self) }

    public var receiverJudgement: ReceiverJudgement {
        ReceiverJudgement(
            ignoredFields: model.fields.everIgnored,
            positionNoiseScale: model.positionScale.factor,
            dopplerNoiseScale: model.velocityScale.factor
        )
    }

    // MARK: Steps

    private mutating func start(
        at time: GPSTime,
        position: GeoPoint,
        fix: Fix,
        measurement: MeasurementModel.Measurement,
        events: [TrackEvent],
        isFirst: Bool = true
    ) -> FixOutcome {
        if case .resuming(let since) = manualPause {
            let pause = since.map { max(0, time.since($0)) } ?? 0
            manualPausedTime += pause
            covered += pause
            manualPause = .none
        }
        let (filter, _) = freshFilter(at: time, position: position, fix: fix, measurement: measurement)
        var stillness = StillnessDetector(
            profile: profile,
            anchor: position,
            sigma: filter.positionSigma,
            measuredSpeed: plausibleDopplerSpeed(fix)
        )
        if !isFirst, let previous = motion?.stillness, !previous.isStill {
            stillness = previous
        }
        motion = Motion(filter: filter, stillness: stillness, lastSpeed: filter.speed)
        let point = TrackPoint(time: time, position: position)
        track.append(point)
        acceptedCount += 1
        // A new time line credits no distance of its own, so what the footpod counted stays.
        gapCarried = 0
        markUsed(time)
        return FixOutcome(verdict: .accepted(point), events: events)
    }

    /// Crosses an outage: credits only a plausible distance, then restarts the filter at the new fix.
    private mutating func bridge(
        _ current: inout Motion,
        to time: GPSTime,
        position: GeoPoint,
        fix: Fix,
        measurement: MeasurementModel.Measurement,
        dt: Double,
        events: [TrackEvent]
    ) -> FixOutcome {
        var events = events
        let noise = measurement.noise
        let measured = current.filter.frame.project(position)
        let chord = current.filter.localPosition.distance(to: measured)
        let allowance =
            2 * (current.filter.positionSigma + (noise.east * noise.east + noise.north * noise.north).squareRoot())
        if (chord - allowance) / dt > profile.maxSpeed {
            impossibleStreak += 1
            guard impossibleStreak >= profile.timelineResetAfter else {
                return reject(.impossibleSpeed, events: events)
            }
            // Consistently somewhere else: relocated (a car, a train), with no distance credited.
            events.append(.filterReset(at: time))
            return start(
                at: time,
                position: position,
                fix: fix,
                measurement: measurement,
                events: events,
                isFirst: false
            )
        }
        let speedAfter = fix.speed.flatMap { $0.isFinite ? $0 : nil } ?? chord / dt
        let integral = 0.5 * (current.lastSpeed + speedAfter) * dt
        let from = current.filter.time
        let (filter, doppler) = freshFilter(at: time, position: position, fix: fix, measurement: measurement)
        // The speeds at the two ends say how long the path was, the directions how much longer
        // than the chord it can have been.
        let here = current.filter.localPosition
        let detour = GapCourse.detourFactor(
            chord: LocalPoint(east: measured.east - here.east, north: measured.north - here.north),
            entry: current.filter.speed >= profile.moveSpeed ? current.filter.velocity : nil,
            exit: doppler.flatMap { $0.velocity.length >= profile.moveSpeed ? $0.velocity : nil },
            limit: profile.maxDetourFactor
        )
        // A footpod that counted the gap knows its path; GPS alone knows only the chord.
        let walked = footpodPath(from: from, to: time, chord: chord, allowance: allowance)
        var bridged =
            walked
            ?? (dt > profile.longGap ? chord : min(max(chord, integral), chord * detour))
        bridged = min(bridged, profile.maxSpeed * dt)
        let credited = current.stillness.bridge(
            chord: walked ?? chord,
            bridged: bridged,
            to: position,
            sigma: filter.positionSigma,
            time: time,
            velocity: filter.velocity,
            significant: walked != nil || model.isSignificant(doppler),
            coherence: walked != nil ? nil : model.coherence(at: time)
        )
        current.filter = filter
        current.lastSpeed = filter.speed
        // What the footpod already credited live through the gap is part of this, not on top of it.
        distance += max(0, credited - gapCarried)
        gapCarried = 0
        covered += dt
        bridgedGapCount += 1
        events.append(.gapBridged(from: from, to: time, distance: credited))
        acceptedCount += 1
        markUsed(time)
        finishStep(current, at: time, speed: filter.speed, events: &events)
        motion = current
        return FixOutcome(verdict: .accepted(TrackPoint(time: time, position: position)), events: events)
    }

    /// The fix's own Doppler speed when it is one a body could have: what a departure from
    /// standing is measured by (`StillnessDetector`).
    @inline(__always)
    private func plausibleDopplerSpeed(_ fix: Fix) -> Double? {
        guard let speed = fix.speed, speed.isFinite, speed >= 0, speed <= profile.maxSpeed else { return nil }
        return speed
    }

    /// A Doppler's speed, its length, when it agrees with the filter's predicted speed to within
    /// the outlier gate: the speed a step's distance integrates. Judged on the speed alone, as a
    /// scalar (the course's noise says nothing about how fast the wearer went), against the larger
    /// of the noise the receiver reports and the noise learnt from it: set aside is what neither
    /// explains, a stuck or leaping reading, not the tail of its noise (on the 10 Hz tempo, whose
    /// noise runs on from one epoch to the next, the noise learnt is 0.14 m/s against a real 0.22).
    ///
    /// The receiver measures its speed directly. The filter's speed is the length of a velocity
    /// averaged over epochs, and an average of vectors with noisy courses is shorter than the
    /// speeds averaged (by about the course's variance over two, 0.14 % for 3 degrees), as it is
    /// on every corner, where the vectors before and after it point different ways.
    @inline(__always)
    private func soundDopplerSpeed(
        _ doppler: (velocity: LocalPoint, sigma: Double),
        _ measurement: MeasurementModel.Measurement,
        _ filter: MotionFilter
    ) -> Double? {
        let speed = doppler.velocity.length
        let sigma = max(doppler.sigma, measurement.reported.velocity)
        return filter.speedMahalanobis(speed, sigma: sigma) <= profile.outlierThreshold ? speed : nil
    }

    /// Credits the distance of one step and moves the clocks on: the trapezoid of `pathSpeed`
    /// (the receiver's own speed where sound, else the filter's), through the stillness detector.
    @inline(__always)
    private mutating func advance(
        _ current: inout Motion,
        to time: GPSTime,
        dt: Double,
        speed: Double,
        pathSpeed: Double,
        significant: Bool,
        measuredSpeed: Double?,
        events: inout [TrackEvent]
    ) {
        let increment = 0.5 * (current.lastSpeed + pathSpeed) * dt
        let here = current.filter.localPosition
        let frame = current.filter.frame
        let credited = current.stillness.step(
            time: time,
            dt: dt,
            speed: speed,
            velocity: current.filter.velocity,
            increment: increment,
            position: current.filter.position,
            sigma: current.filter.positionSigma,
            significant: significant,
            coherence: model.coherence(at: time),
            dopplerSpeed: model.sustainedDopplerSpeed(at: time),
            measuredSpeed: measuredSpeed,
            displacement: { here.distance(to: frame.project($0)) }
        )
        distance += credited
        current.lastSpeed = pathSpeed
        covered += dt
        finishStep(current, at: time, speed: speed, events: &events)
    }

    /// Auto-pause, splits and the track: the same after a filtered step and after a bridged gap.
    /// Runs after `markUsed`, so that the timer counts up to this fix.
    private mutating func finishStep(
        _ current: Motion,
        at time: GPSTime,
        speed filtered: Double,
        events: inout [TrackEvent]
    ) {
        let standing = current.stillness.isStill || motionSaysStill(at: time)
        timeStep(at: time, speed: standing ? 0 : filtered, events: &events)
        track.append(TrackPoint(time: time, position: current.filter.position))
    }

    /// Auto-pause and splits after a step of either kind (a fix, or indoors a footpod's or
    /// treadmill's reading), at the speed that step moved.
    mutating func timeStep(at time: GPSTime, speed: Double, events: inout [TrackEvent]) {
        maxSpeed = max(maxSpeed, speed)
        switch autoPause.update(time: time, speed: speed) {
        case .paused(let at)?:
            autoPauseCount += 1
            events.append(.autoPaused(at: at))
        case .resumed(let at, let pausedFor)?:
            closedPauses += pausedFor
            events.append(.autoResumed(at: at, pausedFor: pausedFor))
        case nil:
            break
        }
        for var split in splitTracker.update(distance: distance, timer: movingTime) {
            if splitBeats.count > 0 { split.averageHeartRate = splitBeats.sum / Double(splitBeats.count) }
            splitBeats = (0, 0)
            events.append(.split(split))
        }
    }

    /// A filter started afresh at a fix (first fix, after a gap, after a reset), with its Doppler.
    private func freshFilter(
        at time: GPSTime,
        position: GeoPoint,
        fix: Fix,
        measurement: MeasurementModel.Measurement
    ) -> (MotionFilter, (velocity: LocalPoint, sigma: Double)?) {
        let noise = measurement.noise
        let doppler = model.velocity(for: fix, measurement, predictedSpeed: 0)
        let filter = MotionFilter(
            position: position,
            time: time,
            noise: noise,
            velocity: doppler?.velocity,
            processNoise: profile.processNoise
        )
        return (filter, doppler)
    }

    /// Moves the time line on to a fix the filter has consumed.
    /// `counted` false for a fix whose Doppler alone was used (`coast`): it does not end the warm-up.
    mutating func markUsed(_ time: GPSTime, counted: Bool = true) {
        impossibleStreak = 0
        // A fix used without a bridge says the GPS saw the stretch: what the footpod carried live
        // (its readings dated past the gap threshold, by a skewed clock or a late fix) comes back
        // out, or it would count twice. A bridge has settled it to zero before this.
        distance -= gapCarried
        gapCarried = 0
        gate.commit(time, counted: counted)
        lastUsable = time
    }

    /// A pause by command: its start is the last used fix, nil until there is one.
    enum ManualPause: Sendable {
        case none
        case paused(since: GPSTime?)
        case resuming(since: GPSTime?)
    }

    private mutating func noteSilence(until now: GPSTime, into events: inout [TrackEvent]) {
        if let lost = gpsWatch.judge(now: now, lastUsable: lastUsable) { events.append(lost) }
    }

    private mutating func reject(_ reason: RejectReason, events: [TrackEvent]) -> FixOutcome {
        count(reason)
        return FixOutcome(verdict: .rejected(reason), events: events)
    }

    private mutating func count(_ reason: RejectReason) {
        if let index = RejectReason.allCases.firstIndex(of: reason) { rejectedCounts[index] += 1 }
    }
}
