import Course
import GATT
import Gait
import HeartRate
import PhoneLinkMessages
import RaceCore
import SessionCore
import TrackCore

/// The daemon's engine as a pure state machine: fixes and receiver news, strap events, commands, storage
/// reports and ticks in, with the time; typed actions out (persist, reply, announce, watchdog,
/// remember the strap). No clock, no I/O: the daemon's loop is a thin shell that performs the
/// actions, and tests drive it with scripted inputs and a manual clock.
///
/// Replies to commands go out only once the batch holding their row has committed (exactly once
/// per token); rows are batched about once a second, lifecycle rows and commands at once, one
/// batch in flight at a time (`WriteQueue`).
public struct SessionEngine: Sendable {
    public struct Configuration: Sendable {
        public var session: SessionController.Configuration
        public var strapConfigured: Bool
        /// The footpods and treadmills configured, whose status `status` shows.
        public var speedSensors: [SpeedSensorKind]
        /// While storage fails, a commit is retried this often (s).
        public var retryInterval: Double
        /// Rows held in memory before raw fixes, then beats, then notices are given up.
        public var maxPendingRows: Int
        /// A phone is configured: lifecycle, splits, notices, replies and snapshots also go to the outbox.
        public var phoneLink: Bool
        /// A sink reads the live figures (cues): a `.reading` once a tick while a session is open.
        public var readings: Bool
        /// How a virtual race is judged (the lead's hysteresis, the partner's staleness).
        public var race: RaceSettings
        /// A barometer is configured (or looked for): `status` shows it.
        public var barometer: Bool
        /// Where the IMU is worn, when one is configured (or looked for): its steps feed the
        /// session as a footpod's count would, where no footpod is configured.
        public var imu: Placement?

        public init(
            session: SessionController.Configuration,
            strapConfigured: Bool = false,
            speedSensors: [SpeedSensorKind] = [],
            retryInterval: Double = 2,
            maxPendingRows: Int = 20_000,
            phoneLink: Bool = false,
            readings: Bool = false,
            race: RaceSettings = RaceSettings(),
            barometer: Bool = false,
            imu: Placement? = nil
        ) {
            self.session = session
            self.strapConfigured = strapConfigured
            self.speedSensors = speedSensors
            self.retryInterval = retryInterval
            self.maxPendingRows = maxPendingRows
            self.phoneLink = phoneLink
            self.readings = readings
            self.race = race
            self.barometer = barometer
            self.imu = imu
        }
    }

    /// Running, then (after `.shutdown`) draining to the writer, closing it, finished.
    enum Phase: Sendable, Equatable {
        case running
        /// `attempted`: the last batch was handed to the writer once.
        case draining(attempted: Bool)
        case closing
        case finished
    }

    /// A command waiting for the writer to say whether the log already answered its id.
    struct PendingCommand: Sendable {
        var request: CommandRequest
        var receivedAt: Double
        var systemTime: Double
    }

    public let configuration: Configuration
    public internal(set) var controller: SessionController
    var merger = LiveEpochMerger()
    var queue: WriteQueue
    var strap: StrapStatus?
    var speedSensors: [SpeedSensorStatus]
    var barometerStatus: BarometerStatus?
    var imuStatus: IMUStatus?
    var pedometer: Pedometer?
    var lookups: [String: [PendingCommand]] = [:]
    var phase = Phase.running
    /// The figures last handed to the writer, so that a quiet second costs no commit.
    var lastLive: SessionSummary?
    /// The last fix of any kind, the receive instants of the last one with a position and the last
    /// usable one: `status` outside a fed session (idle, or storage failing).
    var lastFix: Fix?
    var lastPositionAt: Double?
    var lastUsableAt: Double?
    /// What gpsd said about its receivers: why there is no fix, when there is none.
    var gpsd = GPSDView()
    var standbyWatch: GPSWatch
    var output = SessionOutput()
    var actions: [EngineAction] = []
    /// The phone link as its shell last reported it; nil until it does (or with no phone).
    var phoneReport: PhoneLinkReport?
    /// The last snapshot put in the outbox, so that an unchanged one costs no row.
    var lastSnapshot: LinkSnapshot?
    /// Replies to the phone's commands, queued right behind the rows of the command they answer.
    var phoneReplies: [LogRow] = []
    /// UTC on the monotonic clock, learnt from GPS time: a race's start instant.
    var raceClock = RaceClock()
    /// The virtual race armed or under way, if any; one at a time.
    public internal(set) var race: WearableRace?
    /// The activity the armed race's session starts with.
    var raceActivity: Activity?
    /// A fixed-distance calibration under way: the footpod's count where it began.
    var calibrationMark: (total: Double, at: Double)?
    /// The courses kept, and the parts of those still arriving.
    public internal(set) var courses: CourseShelf
    /// The course the open session follows, if it follows one.
    public internal(set) var follower: CourseFollower?

    /// A new engine; `startup` is what recovery produced, written at the first input.
    /// `courses`: the courses the log keeps, and the parts of those still arriving.
    public init(
        configuration: Configuration,
        controller: SessionController,
        startup: SessionOutput = SessionOutput(),
        courses: CourseShelf = CourseShelf()
    ) {
        self.configuration = configuration
        self.courses = courses
        self.controller = controller
        queue = WriteQueue(maxPendingRows: configuration.maxPendingRows, retryInterval: configuration.retryInterval)
        strap = configuration.strapConfigured ? StrapStatus() : nil
        speedSensors = configuration.speedSensors.map(SpeedSensorStatus.init(kind:))
        barometerStatus = configuration.barometer ? BarometerStatus() : nil
        imuStatus = configuration.imu.map(IMUStatus.init(placement:))
        pedometer = configuration.imu.map(Pedometer.init(placement:))
        // The same threshold as the session's own watch: one rule, whoever asks.
        let session = configuration.session
        standbyWatch = GPSWatch(lostAfter: session.gpsLostAfter ?? session.activity.profile.gpsLostAfter)
        output = startup
        if !startup.rows.isEmpty { queue.flushNow() }
    }

    /// Takes over the sessions a crash left open: the newest is resumed, older ones are closed as
    /// abandoned where they stopped.
    public static func recovering(
        _ open: [RecoveredSession],
        configuration: Configuration,
        ids: SessionIDGenerator,
        now: Instant,
        courses: CourseShelf = CourseShelf()
    ) -> SessionEngine {
        var controller = SessionController(configuration: configuration.session, ids: ids)
        var startup = SessionOutput()
        for (index, stored) in open.enumerated() {
            var recovered = SessionController(
                recovering: stored,
                configuration: configuration.session,
                ids: ids,
                restartedAt: now.monotonic,
                restartedUTC: now.system
            )
            if index < open.count - 1 {
                // Only one session can be open; an older one is closed where it stopped.
                recovered.abandonNow(into: &startup)
            } else {
                recovered.recovered(into: &startup)
                controller = recovered
            }
        }
        return SessionEngine(configuration: configuration, controller: controller, startup: startup, courses: courses)
    }

    public var isFinished: Bool { phase == .finished }

    /// One input at `now`; what the shell must do, in order.
    public mutating func handle(_ input: EngineInput, now: Instant) -> [EngineAction] {
        switch input {
        case .gps(let input): gps(input, now)
        case .strap(let event): strap(event, now)
        case .speedSensor(let event): speedSensor(event, now)
        case .barometer(let event): barometer(event, now)
        case .imu(let event): imu(event, now)
        case .command(let request): command(request, now)
        case .status(let token): actions.append(.reply(token, .status(status(now))))
        case .storage(let report): storage(report, now)
        case .tick: tick(now)
        case .phoneLink(let report): phoneLinkReport(report, now)
        case .partnerSnapshot(let report): partnerSnapshot(report, now)
        case .cue(let outcome, let at):
            controller.event(.cue(outcome), receivedAt: at ?? now.monotonic, into: &output)
        case .shutdown: shutdown(now)
        }
        flush(now)
        var result: [EngineAction] = []
        swap(&result, &actions)
        return result
    }

    private mutating func tick(_ now: Instant) {
        if let fix = merger.flush(now: now.monotonic) { ingest(fix, now) }
        if phase == .running, !queue.isFailing { controller.tick(receivedAt: now.monotonic, into: &output) }
        _ = standbyWatch.judge(now: GPSTime(seconds: now.monotonic), lastUsable: lastUsableAt.map(GPSTime.init))
        if phase == .running { raceTick(now) }
        // While storage fails a snapshot could not be kept anyway: the next one after recovery tells.
        if phase == .running, configuration.phoneLink, !queue.isFailing { snapshot(now) }
        if phase == .running, configuration.readings, let reading = reading(now) { actions.append(.reading(reading)) }
        queue.commitDue()
        actions.append(.watchdog)
    }

    /// Moves what the session logic produced into the queue and out to the sinks; with a phone,
    /// the messages that report it go in the same batch, right behind their causes.
    mutating func absorbOutput(at now: Instant? = nil) {
        if configuration.readings { finalReadings(at: now?.monotonic ?? 0) }
        // The course a session followed, where it stood at the end: its `session_ended` carries it.
        var endedCourse: LinkSnapshot.Course?
        for announcement in output.announcements {
            if case .ended = announcement.event {
                raceSessionEnded(announcement.sessionID)
                endedCourse = follower.map { Self.linkCourse($0.progress()) }
                follower = nil
            }
        }
        for announcement in output.announcements { actions.append(.announce(announcement)) }
        let messages =
            configuration.phoneLink && !output.isEmpty
            ? outboxMessages(createdAt: now?.system ?? 0, endedCourse: endedCourse) : []
        queue.append(output.rows)
        queue.append(phoneReplies)
        queue.append(messages)
        phoneReplies.removeAll(keepingCapacity: true)
        output.removeAll()
    }

    /// Hands the next batch to the writer when one is due; after shutdown, the last one and then
    /// the writer's close.
    private mutating func flush(_ now: Instant) {
        absorbOutput(at: now)
        switch phase {
        case .running:
            if queue.isReady(now: now.monotonic) { write() }
        case .draining(let attempted):
            guard !queue.hasInFlight else { return }
            // One last attempt even on failing storage; more only while commits succeed.
            if !attempted || (!queue.isFailing && queue.hasPendingRows), write() {
                phase = .draining(attempted: true)
                return
            }
            phase = .closing
            actions.append(.persist(.close))
        case .closing, .finished:
            break
        }
    }

    /// Takes a batch with the live figures (when they changed); false when there was nothing to write.
    @discardableResult
    private mutating func write() -> Bool {
        var live = controller.liveFigures
        if live?.summary == lastLive { live = nil }
        guard let batch = queue.take(live: live) else { return false }
        if let live { lastLive = live.summary }
        actions.append(.persist(.write(batch)))
        return true
    }

    private mutating func shutdown(_ now: Instant) {
        guard phase == .running else { return }
        // The held epoch and the open session's figures are written; the session stays open, to be
        // resumed by the next start.
        if let fix = merger.flushAll() { ingest(fix, now) }
        phase = .draining(attempted: false)
    }
}
