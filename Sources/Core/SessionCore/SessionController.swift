import Energy
import StrideCalibration
import TrackCore

/// A session's own logic: commands, fixes, beats and events in; rows and announcements out.
///
/// It owns the lifecycle, the command ledger and the open session's `TrackSession`. Times:
/// `receivedAt` is the process's monotonic clock, `systemTime` the wall clock (possibly wrong at
/// boot), fixes carry GPS time. Deterministic: the journal of a session (its fixes, beats and
/// commands) fed again gives the same state, which is how a crash is recovered.
public struct SessionController: Sendable {
    public struct Configuration: Sendable, Equatable {
        public var activity: Activity
        public var autostart: Bool
        /// An open session with no accepted fix for this long is closed as abandoned (s).
        public var abandonAfter: Double
        /// No usable fix for this long is "GPS lost" (s); nil keeps the activity's default.
        public var gpsLostAfter: Double?
        /// The wearer's zones; heart-rate figures need them.
        public var heartRateZones: HeartRateZones?
        /// `start` without saying begins an indoor session.
        public var indoorByDefault: Bool
        /// What an indoor session takes its distance from (the treadmill when one is configured,
        /// else the footpod, else the IMU's steps); nil: indoor sessions are refused.
        public var indoorSource: DistanceSource?
        /// The IMU's steps count strides (calibrated outdoors, the distance through gaps, indoors
        /// the distance) where no footpod is configured; with one they are counted and no more.
        public var stepsCountDistance: Bool
        /// The footpod's calibration learnt so far (stored), and what a stretch must be to teach it.
        public var footpodStretches: [CalibrationStretch]
        public var calibration: CalibrationSettings
        /// The footpod's factors as a logged session applied them, instead of the stretches' (an
        /// export or a recovery gives the session the distance it had).
        public var footpodFactors: StrideFactors?
        /// The wearer's body mass and usual load (kg, the config's `[wearer]`); no body mass: no
        /// energy unless a start command gives it.
        public var bodyMass: Double?
        public var load: Double
        public var walkingModel: WalkingModel
        /// A logged session's energy settings as it began, instead of these (exports, recovery).
        public var sessionEnergy: EnergySettings?

        public init(
            activity: Activity = .running,
            autostart: Bool = false,
            abandonAfter: Double = 6 * 3600,
            gpsLostAfter: Double? = nil,
            heartRateZones: HeartRateZones? = nil,
            indoorByDefault: Bool = false,
            indoorSource: DistanceSource? = nil,
            stepsCountDistance: Bool = true,
            footpodStretches: [CalibrationStretch] = [],
            calibration: CalibrationSettings = CalibrationSettings(),
            footpodFactors: StrideFactors? = nil,
            bodyMass: Double? = nil,
            load: Double = 0,
            walkingModel: WalkingModel = .lcda,
            sessionEnergy: EnergySettings? = nil
        ) {
            self.activity = activity
            self.autostart = autostart
            self.abandonAfter = abandonAfter
            self.gpsLostAfter = gpsLostAfter
            self.heartRateZones = heartRateZones
            self.indoorByDefault = indoorByDefault
            self.indoorSource = indoorSource
            self.stepsCountDistance = stepsCountDistance
            self.footpodStretches = footpodStretches
            self.calibration = calibration
            self.footpodFactors = footpodFactors
            self.bodyMass = bodyMass
            self.load = load
            self.walkingModel = walkingModel
            self.sessionEnergy = sessionEnergy
        }

        /// What a session started with `override` costs its energy by.
        public func energy(with override: CarriageOverride) -> EnergySettings? {
            if let sessionEnergy { return sessionEnergy }
            return override.applied(bodyMass: bodyMass, load: load).map {
                EnergySettings(carriage: $0, walking: walkingModel)
            }
        }
    }

    /// The session being recorded.
    public struct OpenSession: Sendable {
        public let id: String
        public let startedAt: TimeAnchor
        public var track: TrackSession
        /// Receive instant of the last accepted fix, or of the restart that recovered the session.
        var lastSample: Double
        /// Set by recovery: the first fix afterwards measures the gap the daemon was down.
        var downSince: GPSTime?
        var recovering: Bool
        /// Indoors, the session's clock: UTC at a monotonic instant, durations on the monotonic
        /// clock from there (no fix teaches GPS time indoors).
        var indoorClock: (utc: Double, monotonic: Double)? = nil
    }

    /// What the log needs to rebuild a session after a crash: its inputs, in order.
    public enum JournalEntry: Sendable, Equatable {
        case fix(Fix)
        case command(SessionCommand, id: String)
        case heartRate(HeartRateSample)
        case speed(SpeedSensorSample)
        case pressure(PressureSample)
    }

    public let configuration: Configuration
    public internal(set) var lifecycle = SessionLifecycle()
    public internal(set) var session: OpenSession?
    var ledger = CommandLedger()
    /// GPS time learnt from every fix the session logic saw: anchors a start by command.
    var clock = ClockOffset()
    public private(set) var gpsdConnected = false
    var ids: SessionIDGenerator
    /// Sequence of the next logged row in the open session; rows of a session are totally ordered.
    public internal(set) var nextSeq = 1
    private var lastEnded: String?
    /// The footpod's calibration: learnt outdoors, applied indoors.
    public internal(set) var footpodCalibration: FootpodCalibration

    public init(configuration: Configuration, ids: SessionIDGenerator) {
        self.configuration = configuration
        self.ids = ids
        footpodCalibration = FootpodCalibration(
            settings: configuration.calibration,
            stretches: configuration.footpodStretches
        )
    }

    // MARK: Inputs

    /// Answers a command; a repeated id gets its first answer again and changes nothing.
    public mutating func handle(
        _ command: SessionCommand,
        id: String,
        activity: Activity? = nil,
        indoor: Bool? = nil,
        carriage: CarriageOverride = .none,
        receivedAt: Double,
        systemTime: Double,
        into output: inout SessionOutput
    ) -> CommandReply {
        if let previous = ledger.reply(for: id) { return previous }
        let indoor = indoor ?? configuration.indoorByDefault
        if command == .start, indoor, configuration.indoorSource == nil, lifecycle.state == .idle {
            return answer(
                command,
                id: id,
                refusal: .notReady,
                message: "no footpod, treadmill or IMU is configured: an indoor session has no distance to take",
                receivedAt: receivedAt,
                into: &output
            )
        }
        var produced = SessionOutput()
        let reply: CommandReply
        switch lifecycle.apply(command) {
        case .failure(let refusal):
            reply = CommandReply(
                commandID: id,
                command: command,
                accepted: false,
                message: refusal.reason,
                sessionID: session?.id,
                state: lifecycle.state,
                refusal: refusal.code
            )
        case .success(let transition):
            let message = perform(
                transition,
                activity: activity,
                indoor: indoor,
                carriage: carriage,
                receivedAt: receivedAt,
                systemTime: systemTime,
                into: &produced
            )
            reply = CommandReply(
                commandID: id,
                command: command,
                accepted: true,
                message: message,
                sessionID: session?.id ?? lastEnded,
                state: lifecycle.state
            )
        }
        ledger.record(reply)
        guard !isRecovering else { return reply }
        // The command row goes first (after a start's `begin`), with the next sequence number.
        let row = SessionRow.command(sessionID: reply.sessionID, seq: takeSeq(), reply, receivedAt: receivedAt)
        produced.rows.insert(row, at: command == .start ? min(1, produced.rows.count) : 0)
        if command == .end, reply.accepted { nextSeq = 1 }
        output.rows += produced.rows
        output.announcements += produced.announcements
        return reply
    }

    /// Refuses a command without applying it (it expired on its way, say): logged and kept like
    /// any answer, so that a retry with the same id gets this refusal again.
    public mutating func refuse(
        _ command: SessionCommand,
        id: String,
        code: RefusalCode,
        message: String,
        receivedAt: Double,
        into output: inout SessionOutput
    ) -> CommandReply {
        answer(command, id: id, refusal: code, message: message, receivedAt: receivedAt, into: &output)
    }

    /// Answers a command the session's lifecycle does not apply (a race's): logged and kept like any
    /// answer, so that a retry with the same id gets it again and it is never applied twice.
    public mutating func answer(
        _ command: SessionCommand,
        id: String,
        refusal: RefusalCode?,
        message: String,
        receivedAt: Double,
        into output: inout SessionOutput
    ) -> CommandReply {
        if let previous = ledger.reply(for: id) { return previous }
        let reply = CommandReply(
            commandID: id,
            command: command,
            accepted: refusal == nil,
            message: message,
            sessionID: session?.id,
            state: lifecycle.state,
            refusal: refusal
        )
        ledger.record(reply)
        output.rows.append(.command(sessionID: reply.sessionID, seq: takeSeq(), reply, receivedAt: receivedAt))
        return reply
    }

    /// Judges a fix; in an open session, logs it with its verdict and whatever it caused.
    public mutating func ingest(_ fix: Fix, into output: inout SessionOutput) {
        if let time = fix.time, let receivedAt = fix.receivedAt {
            _ = clock.observe(epoch: time, receivedAt: receivedAt)
        }
        if session != nil, let time = fix.time, let down = session?.downSince, fix.isUsable {
            session?.downSince = nil
            let gap = time.since(down)
            if gap > configuration.abandonAfter {
                abandon(endedAt: TimeAnchor(source: .gps, seconds: down.seconds), into: &output)
            } else {
                record(.restartGap(down: gap), time: time, receivedAt: fix.receivedAt, into: &output)
            }
        }
        if session == nil, lifecycle.state == .idle, configuration.autostart, fix.isUsable, let time = fix.time {
            let anchor = TimeAnchor(source: .gps, seconds: time.seconds)
            let id = begin(
                activity: configuration.activity,
                at: anchor,
                energy: configuration.energy(with: .none),
                into: &output
            )
            lifecycle = SessionLifecycle(state: .starting)
            lifecycle.confirmStart()
            output.rows.append(.state(sessionID: id, lifecycle.state))
        }
        // In place: the open session (its track above all) is large, and a copy per fix shows.
        guard session != nil else { return }
        let outcome = session!.track.ingest(fix)
        let verdict: LoggedVerdict
        switch outcome.verdict {
        case .accepted(let point):
            verdict = .accepted(smoothed: point.position)
            if let receivedAt = fix.receivedAt { session!.lastSample = receivedAt }
        case .rejected(let reason):
            verdict = .rejected(reason)
        }
        guard !isRecovering else {
            follow(outcome.events)
            return
        }
        output.rows.append(.fix(sessionID: session!.id, seq: takeSeq(), fix, verdict))
        for event in outcome.events { record(event, receivedAt: fix.receivedAt, into: &output) }
        learnStride(from: fix, outcome, into: &output)
    }

    /// The passage of time: GPS loss by silence, abandoned sessions.
    public mutating func tick(receivedAt now: Double, into output: inout SessionOutput) {
        guard let lastSample = session?.lastSample else { return }
        if now - lastSample > configuration.abandonAfter {
            let last = session?.track.lastFixTime.map { TimeAnchor(source: .gps, seconds: $0.seconds) }
            abandon(endedAt: last, into: &output)
            return
        }
        let events = session!.track.tick(receivedAt: now)
        for event in events { record(event, receivedAt: now, into: &output) }
    }

    /// gpsd connected or gone; logged in an open session, shown by `status` always.
    public mutating func gpsd(connected: Bool, receivedAt: Double, into output: inout SessionOutput) {
        guard connected != gpsdConnected else { return }
        gpsdConnected = connected
        // gpsd's comings and goings have no GPS time of their own.
        note(connected ? .gpsdConnected : .gpsdDisconnected, time: nil, receivedAt: receivedAt, into: &output)
    }

    /// A device event from gpsd (receiver unplugged or plugged back).
    public mutating func device(path: String, activated: Bool, receivedAt: Double, into output: inout SessionOutput) {
        note(
            activated ? .deviceAdded(path: path) : .deviceRemoved(path: path),
            time: nil,
            receivedAt: receivedAt,
            into: &output
        )
    }

    /// A beat from the strap: into the open session's log and its heart-rate figures.
    public mutating func heartRate(_ sample: HeartRateSample, into output: inout SessionOutput) {
        guard session != nil else { return }
        if sample.countsForFigures { session!.track.heartRate(bpm: sample.bpm, at: sample.receivedAt) }
        guard !isRecovering else { return }
        let time = sessionTime(atReceive: sample.receivedAt)
        output.rows.append(.heartRate(sessionID: session!.id, seq: takeSeq(), sample, time: time))
    }

    /// A footpod's or treadmill's reading: every one into the open session's log, dated on the
    /// session's clock; indoors, the one the session takes its distance from moves it on.
    public mutating func speed(_ sample: SpeedSensorSample, into output: inout SessionOutput) {
        guard session != nil else { return }
        var sample = sample
        if sample.time == nil { sample.time = sessionTime(atReceive: sample.receivedAt)?.seconds }
        if !isRecovering {
            output.rows.append(.speed(sessionID: session!.id, seq: takeSeq(), sample))
        }
        let strides = sample.source == .footpod || (sample.source == .steps && configuration.stepsCountDistance)
        if strides, let total = sample.reading.totalDistance, let speed = sample.reading.speed,
            let learnt = footpodCalibration.footpod(total: total, speed: speed, receivedAt: sample.receivedAt)
        {
            strideLearnt(learnt, into: &output)
        }
        if sample.source == .steps, let time = sample.time {
            session!.track.pedometer(
                steps: sample.reading.steps,
                still: sample.reading.still,
                at: GPSTime(seconds: time)
            )
        }
        let outdoorFootpod = session!.track.distanceSource == .gps && strides
        guard sample.source == session!.track.distanceSource || outdoorFootpod, let time = sample.time else { return }
        if outdoorFootpod { session!.track.useFootpod(footpodCalibration.factors) }
        if !isRecovering { session!.lastSample = sample.receivedAt }
        let reading = StrideReading(
            time: GPSTime(seconds: time),
            totalDistance: sample.reading.totalDistance,
            speed: sample.reading.speed
        )
        let events = session!.track.stride(reading)
        guard !isRecovering else {
            follow(events)
            return
        }
        for event in events { record(event, receivedAt: sample.receivedAt, into: &output) }
    }

    /// A barometer's reading: into the open session's log and its elevation, dated on GPS time
    /// (a barometer needs fixes to tie it to the altitude; indoors it is logged, not used).
    public mutating func pressure(_ sample: PressureSample, into output: inout SessionOutput) {
        guard session != nil else { return }
        var sample = sample
        if sample.time == nil, session!.indoorClock == nil {
            sample.time = sessionTime(atReceive: sample.receivedAt)?.seconds
        }
        if !isRecovering {
            output.rows.append(.pressure(sessionID: session!.id, seq: takeSeq(), sample))
        }
        guard session!.track.distanceSource == .gps, let time = sample.time else { return }
        session!.track.pressure(kilopascal: sample.kilopascal, at: GPSTime(seconds: time))
    }

    /// The open session's clock at a receive instant: GPS time outdoors, the indoor clock indoors.
    func sessionTime(atReceive instant: Double) -> GPSTime? {
        if let clock = session?.indoorClock { return GPSTime(seconds: clock.utc + (instant - clock.monotonic)) }
        return gpsTime(atReceive: instant)
    }

    /// An event from outside the path of a fix (strap, storage): logged in an open session, dated
    /// by the GPS time it arrived at; announced either way.
    public mutating func event(_ event: SessionEvent, receivedAt: Double, into output: inout SessionOutput) {
        note(event, time: gpsTime(atReceive: receivedAt), receivedAt: receivedAt, into: &output)
    }

    /// The open session's id and figures as they stand, without copying the session.
    public var liveFigures: LiveFigures? {
        guard let id = session?.id, let summary = session?.track.summary else { return nil }
        return LiveFigures(sessionID: id, summary: summary)
    }

    /// Commits work again after an outage of the disk: the silence while nothing could be recorded
    /// is not an abandoned session.
    public mutating func storageRecovered(at now: Double) {
        session?.lastSample = now
    }

    // MARK: Outputs

    public var isRecovering: Bool { session?.recovering ?? false }

    /// The answer already given to a command id in this process, or recovered from its log.
    public func reply(for id: String) -> CommandReply? { ledger.reply(for: id) }

    /// A reply the log had for an id this process had not seen: kept, so a retry costs no read.
    public mutating func remember(_ reply: CommandReply) { ledger.record(reply) }

    /// The GPS time now, when fixes have taught it.
    public func gpsTime(atReceive instant: Double) -> GPSTime? {
        clock.gpsTime(atReceive: instant)
    }

    // MARK: Steps

    func makeTrack(_ activity: Activity, indoor: DistanceSource? = nil, energy: EnergySettings? = nil) -> TrackSession {
        var profile = activity.profile
        if let lost = configuration.gpsLostAfter { profile.gpsLostAfter = lost }
        guard let indoor else {
            return TrackSession(
                activity: activity,
                profile: profile,
                heartRateZones: configuration.heartRateZones,
                energy: energy
            )
        }
        return TrackSession(
            indoor: activity,
            source: indoor,
            factors: indoor.countsStrides ? configuration.footpodFactors ?? footpodCalibration.factors : .uncalibrated,
            profile: profile,
            heartRateZones: configuration.heartRateZones,
            energy: energy
        )
    }

    private mutating func perform(
        _ transition: SessionLifecycle.Transition,
        activity: Activity?,
        indoor: Bool,
        carriage: CarriageOverride,
        receivedAt: Double,
        systemTime: Double,
        into output: inout SessionOutput
    ) -> String {
        switch transition {
        case .begin:
            let anchor =
                clock.gpsTime(atReceive: receivedAt).map { TimeAnchor(source: .gps, seconds: $0.seconds) }
                ?? TimeAnchor(source: .system, seconds: systemTime)
            let source = indoor ? configuration.indoorSource : nil
            let id = begin(
                activity: activity ?? configuration.activity,
                at: anchor,
                indoor: source,
                energy: configuration.energy(with: carriage),
                into: &output
            )
            session?.lastSample = receivedAt
            if source != nil { session?.indoorClock = (anchor.seconds, receivedAt) }
            lifecycle.confirmStart()
            output.rows.append(.state(sessionID: id, lifecycle.state))
            return source.map { "indoor session started (distance from the \($0.rawValue))" } ?? "session started"
        case .suspend:
            session?.track.pauseByCommand()
            pauseChanged(.paused, receivedAt: receivedAt, into: &output)
            return "session paused"
        case .resume:
            session?.track.resumeByCommand()
            pauseChanged(.resumed, receivedAt: receivedAt, into: &output)
            return "session resumed"
        case .end:
            guard let open = session else {
                lifecycle.finish()
                return "session ended"
            }
            let endedAt =
                open.track.lastFixTime.map { TimeAnchor(source: open.timeSource, seconds: $0.seconds) }
                ?? TimeAnchor(source: .system, seconds: systemTime)
            finish(open, reason: .command, endedAt: endedAt, receivedAt: receivedAt, into: &output)
            return "session ended"
        }
    }

    /// A pause or resume by command: an event at the last fix and the new state, written at once.
    private mutating func pauseChanged(_ event: SessionEvent, receivedAt: Double, into output: inout SessionOutput) {
        guard let id = session?.id, !isRecovering else { return }
        record(event, time: session?.track.lastFixTime, receivedAt: receivedAt, into: &output)
        output.rows.append(.state(sessionID: id, lifecycle.state))
    }

    @discardableResult
    mutating func begin(
        activity: Activity,
        at anchor: TimeAnchor,
        indoor: DistanceSource? = nil,
        energy: EnergySettings? = nil,
        into output: inout SessionOutput
    ) -> String {
        let id = ids.next()
        session = OpenSession(
            id: id,
            startedAt: anchor,
            track: makeTrack(activity, indoor: indoor, energy: energy),
            lastSample: 0,
            downSince: nil,
            recovering: false
        )
        nextSeq = 1
        output.rows.append(
            .begin(
                sessionID: id,
                activity: activity,
                startedAt: anchor,
                source: indoor ?? .gps,
                factors: indoor?.countsStrides == true ? session?.track.footpodFactors : nil,
                energy: energy
            )
        )
        let time = anchor.source == .gps ? GPSTime(seconds: anchor.seconds) : nil
        record(.started(anchor), time: time, receivedAt: nil, into: &output)
        return id
    }

    mutating func abandon(endedAt: TimeAnchor?, into output: inout SessionOutput) {
        guard let open = session else { return }
        lifecycle = SessionLifecycle(state: .ending)
        finish(open, reason: .abandoned, endedAt: endedAt, receivedAt: nil, into: &output)
    }

    private mutating func finish(
        _ open: OpenSession,
        reason: EndReason,
        endedAt: TimeAnchor?,
        receivedAt: Double?,
        into output: inout SessionOutput
    ) {
        if let stretch = footpodCalibration.sessionEnded(), !open.recovering {
            calibrationLearnt(stretch, sessionID: open.id, into: &output)
        }
        record(.ended(reason), time: open.track.lastFixTime, receivedAt: receivedAt, into: &output)
        output.rows.append(.finish(sessionID: open.id, summary: open.track.summary, reason: reason, endedAt: endedAt))
        lifecycle.finish()
        lastEnded = open.id
        session = nil
    }

    /// Follows the core's auto-pause in the lifecycle.
    mutating func follow(_ events: [TrackEvent]) {
        for event in events {
            switch event {
            case .autoPaused: lifecycle.autoPaused()
            case .autoResumed: lifecycle.autoResumed()
            default: break
            }
        }
    }

    private mutating func record(_ event: TrackEvent, receivedAt: Double?, into output: inout SessionOutput) {
        let before = lifecycle.state
        follow([event])
        record(.track(event), time: event.time, receivedAt: receivedAt, into: &output)
        if lifecycle.state != before, let id = session?.id {
            output.rows.append(.state(sessionID: id, lifecycle.state))
        }
    }

    /// An event of the open session: a row in its sequence, and its announcement.
    mutating func record(_ event: SessionEvent, time: GPSTime?, receivedAt: Double?, into output: inout SessionOutput) {
        guard let id = session?.id else { return }
        let announcement = Announcement(event, sessionID: id, time: time, receivedAt: receivedAt)
        output.rows.append(.event(seq: takeSeq(), announcement))
        output.announcements.append(announcement)
    }

    /// An event logged in an open session, announced always.
    private mutating func note(
        _ event: SessionEvent,
        time: GPSTime?,
        receivedAt: Double,
        into output: inout SessionOutput
    ) {
        guard session != nil, !isRecovering else {
            output.announcements.append(Announcement(event, sessionID: session?.id, time: time, receivedAt: receivedAt))
            return
        }
        record(event, time: time, receivedAt: receivedAt, into: &output)
    }

    private mutating func takeSeq() -> Int {
        defer { nextSeq += 1 }
        return nextSeq
    }
}

extension Fix {
    /// Good enough to start a session on: a 2D/3D fix with a time and a real position.
    public var isUsable: Bool {
        guard mode >= 2, time != nil, let position else { return false }
        return position.isPlausible
    }
}

extension SessionController.OpenSession {
    /// Where the session's instants come from: GPS outdoors, the system clock indoors.
    var timeSource: TimeAnchor.Source { indoorClock == nil ? .gps : .system }
}
