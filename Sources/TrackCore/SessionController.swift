/// The daemon's pure core: commands, fixes and ticks in, actions out.
///
/// It owns the lifecycle, the command ledger and the open session's `TrackSession`; the daemon
/// only carries out the actions (write, reply). Times: `receivedAt` is the monotonic clock of the
/// process, `systemTime` the wall clock (possibly wrong at boot), fixes carry GPS time.
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

        public init(
            activity: Activity = .running,
            autostart: Bool = false,
            abandonAfter: Double = 6 * 3600,
            gpsLostAfter: Double? = nil,
            heartRateZones: HeartRateZones? = nil
        ) {
            self.activity = activity
            self.autostart = autostart
            self.abandonAfter = abandonAfter
            self.gpsLostAfter = gpsLostAfter
            self.heartRateZones = heartRateZones
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
    }

    /// What the log needs to rebuild a session after a crash: its inputs, in order.
    public enum JournalEntry: Sendable, Equatable {
        case fix(Fix)
        case command(SessionCommand, id: String)
        case heartRate(HeartRateSample)
    }

    public let configuration: Configuration
    public private(set) var lifecycle = SessionLifecycle()
    public private(set) var session: OpenSession?
    private var ledger = CommandLedger()
    /// GPS time learnt from every fix, with or without a session: anchors a start by command.
    private var clock = ClockOffset()
    public private(set) var lastFix: Fix?
    public private(set) var gpsdConnected = false
    /// The id the next session takes; the caller renews it after each `.begin`.
    public var nextSessionID: String
    /// Sequence of the next logged row in the open session; rows of a session are totally ordered.
    public var nextSeq = 1

    public init(configuration: Configuration, nextSessionID: String) {
        self.configuration = configuration
        self.nextSessionID = nextSessionID
    }

    // MARK: Recovery

    /// Rebuilds an open session from its logged inputs: the core is deterministic, so the same
    /// inputs give the same distance, timers and state, and nothing is counted twice.
    public init(
        configuration: Configuration,
        nextSessionID: String,
        recovering id: String,
        activity: Activity,
        startedAt: TimeAnchor,
        journal: [JournalEntry],
        nextSeq: Int,
        restartedAt: Double
    ) {
        self.init(configuration: configuration, nextSessionID: nextSessionID)
        lifecycle = SessionLifecycle(state: .starting)
        lifecycle.confirmStart()
        session = OpenSession(
            id: id,
            startedAt: startedAt,
            track: makeTrack(activity),
            lastSample: restartedAt,
            downSince: nil,
            recovering: true
        )
        for entry in journal {
            switch entry {
            case .fix(let fix): _ = ingest(fix)
            case .heartRate(let sample): _ = heartRate(sample)
            case .command(.start, let commandID):
                // The command that began this session: its answer stays "started".
                ledger.record(
                    CommandReply(
                        commandID: commandID,
                        command: .start,
                        accepted: true,
                        message: "session started",
                        sessionID: id,
                        state: .active
                    )
                )
            case .command(let command, let commandID):
                _ = handle(command, id: commandID, receivedAt: restartedAt, systemTime: 0)
            }
        }
        session?.recovering = false
        session?.lastSample = restartedAt
        let lastFixTime = session?.track.lastFixTime
        session?.downSince = lastFixTime
        self.nextSeq = nextSeq
        lastFix = nil
    }

    /// The event that says a restarted daemon took the session over.
    public mutating func recoveredActions() -> [SessionAction] {
        guard let session else { return [] }
        var detail: [String: EventValue] = ["distance_m": .number(session.track.distance)]
        if let last = session.track.lastFixTime { detail["last_fix"] = .number(last.seconds) }
        return [event(LoggedEvent(kind: "session_recovered", time: session.track.lastFixTime, detail: detail), at: nil)]
    }

    /// Closes a recovered session as abandoned at its last fix (a newer one is open).
    public mutating func abandonNow() -> [SessionAction] {
        var actions: [SessionAction] = []
        let last = session?.track.lastFixTime.map { TimeAnchor(source: .gps, seconds: $0.seconds) }
        abandon(endedAt: last, into: &actions)
        return actions
    }

    // MARK: Inputs

    /// Answers a command; a repeated id gets its first answer again and changes nothing.
    public mutating func handle(
        _ command: SessionCommand,
        id: String,
        activity: Activity? = nil,
        receivedAt: Double,
        systemTime: Double
    ) -> (CommandReply, [SessionAction]) {
        if let previous = ledger.reply(for: id) { return (previous, []) }
        var actions: [SessionAction] = []
        let reply: CommandReply
        switch lifecycle.apply(command) {
        case .failure(let refusal):
            reply = CommandReply(
                commandID: id,
                command: command,
                accepted: false,
                message: refusal.reason,
                sessionID: session?.id,
                state: lifecycle.state
            )
        case .success(let transition):
            let message = perform(
                transition,
                activity: activity,
                receivedAt: receivedAt,
                systemTime: systemTime,
                into: &actions
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
        if !isRecovering {
            actions.insert(
                .recordCommand(sessionID: reply.sessionID, seq: takeSeq(), reply: reply, receivedAt: receivedAt),
                at: command == .start ? min(1, actions.count) : 0
            )
            if command == .end, reply.accepted { nextSeq = 1 }
        }
        return (reply, isRecovering ? [] : actions)
    }

    /// Judges a fix; in an open session, logs it with its verdict and whatever it caused.
    public mutating func ingest(_ fix: Fix) -> [SessionAction] {
        if let time = fix.time, let receivedAt = fix.receivedAt {
            _ = clock.observe(epoch: time, receivedAt: receivedAt)
        }
        if !isRecovering { lastFix = fix }
        var actions: [SessionAction] = []
        if session != nil, let time = fix.time, let down = session?.downSince, fix.isUsable {
            session?.downSince = nil
            let gap = time.since(down)
            if gap > configuration.abandonAfter {
                abandon(endedAt: TimeAnchor(source: .gps, seconds: down.seconds), into: &actions)
            } else {
                actions.append(
                    event(
                        LoggedEvent(kind: "restart_gap", time: time, detail: ["down_s": .number(gap)]),
                        at: fix.receivedAt
                    )
                )
            }
        }
        if session == nil, lifecycle.state == .idle, configuration.autostart, fix.isUsable, let time = fix.time {
            let anchor = TimeAnchor(source: .gps, seconds: time.seconds)
            let id = begin(activity: configuration.activity, at: anchor, into: &actions)
            lifecycle = SessionLifecycle(state: .starting)
            lifecycle.confirmStart()
            actions.append(.stateChanged(sessionID: id, state: lifecycle.state))
        }
        guard var open = session else { return actions }
        let outcome = open.track.ingest(fix)
        let verdict: LoggedVerdict
        switch outcome.verdict {
        case .accepted(let point):
            verdict = .accepted(smoothed: point.position)
            if let receivedAt = fix.receivedAt { open.lastSample = receivedAt }
        case .rejected(let reason):
            verdict = .rejected(reason)
        }
        session = open
        guard !isRecovering else {
            follow(outcome.events)
            return []
        }
        actions.append(.recordFix(sessionID: open.id, seq: takeSeq(), fix: fix, verdict: verdict))
        for sessionEvent in outcome.events {
            actions.append(contentsOf: record(sessionEvent, receivedAt: fix.receivedAt))
        }
        return actions
    }

    /// The passage of time: GPS loss by silence, abandoned sessions.
    public mutating func tick(receivedAt now: Double) -> [SessionAction] {
        guard var open = session else { return [] }
        var actions: [SessionAction] = []
        if now - open.lastSample > configuration.abandonAfter {
            let last = open.track.lastFixTime.map { TimeAnchor(source: .gps, seconds: $0.seconds) }
            abandon(endedAt: last, into: &actions)
            return actions
        }
        let events = open.track.tick(receivedAt: now)
        session = open
        for sessionEvent in events { actions.append(contentsOf: record(sessionEvent, receivedAt: now)) }
        return actions
    }

    /// gpsd connected or gone; logged in an open session, shown by `status` always.
    public mutating func gpsd(connected: Bool, receivedAt: Double) -> [SessionAction] {
        guard connected != gpsdConnected else { return [] }
        gpsdConnected = connected
        guard session != nil else { return [] }
        return [event(LoggedEvent(kind: connected ? "gpsd_connected" : "gpsd_disconnected"), at: receivedAt)]
    }

    /// A beat from the strap: into the open session's log and its heart-rate figures.
    public mutating func heartRate(_ sample: HeartRateSample) -> [SessionAction] {
        guard var open = session else { return [] }
        if sample.countsForFigures { open.track.heartRate(bpm: sample.bpm, at: sample.receivedAt) }
        session = open
        guard !isRecovering else { return [] }
        return [
            .recordHeartRate(
                sessionID: open.id,
                seq: takeSeq(),
                sample: sample,
                time: gpsTime(atReceive: sample.receivedAt)
            )
        ]
    }

    /// A strap event (found, lost, regained, contact, battery, a payload that was no measurement).
    public mutating func strap(_ logged: LoggedEvent, receivedAt: Double) -> [SessionAction] {
        guard session != nil, !isRecovering else { return [] }
        var logged = logged
        logged.time = logged.time ?? gpsTime(atReceive: receivedAt)
        return [event(logged, at: receivedAt)]
    }

    /// A device event from gpsd (receiver unplugged or plugged back).
    public mutating func device(path: String, activated: Bool, receivedAt: Double) -> [SessionAction] {
        guard session != nil else { return [] }
        let kind = activated ? "device_added" : "device_removed"
        return [event(LoggedEvent(kind: kind, detail: ["path": .text(path)]), at: receivedAt)]
    }

    // MARK: Outputs

    public var isRecovering: Bool { session?.recovering ?? false }

    /// The answer already given to a command id in this process.
    public func reply(for id: String) -> CommandReply? { ledger.reply(for: id) }

    /// The GPS time now, when fixes have taught it.
    public func gpsTime(atReceive instant: Double) -> GPSTime? {
        clock.gpsTime(atReceive: instant)
    }

    // MARK: Steps

    private var lastEnded: String?

    private func makeTrack(_ activity: Activity) -> TrackSession {
        var profile = activity.profile
        if let lost = configuration.gpsLostAfter { profile.gpsLostAfter = lost }
        return TrackSession(activity: activity, profile: profile, heartRateZones: configuration.heartRateZones)
    }

    private mutating func perform(
        _ transition: SessionLifecycle.Transition,
        activity: Activity?,
        receivedAt: Double,
        systemTime: Double,
        into actions: inout [SessionAction]
    ) -> String {
        switch transition {
        case .begin:
            let anchor =
                clock.gpsTime(atReceive: receivedAt).map { TimeAnchor(source: .gps, seconds: $0.seconds) }
                ?? TimeAnchor(source: .system, seconds: systemTime)
            let id = begin(activity: activity ?? configuration.activity, at: anchor, into: &actions)
            session?.lastSample = receivedAt
            lifecycle.confirmStart()
            actions.append(.stateChanged(sessionID: id, state: lifecycle.state))
            return "session started"
        case .suspend:
            session?.track.pauseByCommand()
            logPauseChange("paused", receivedAt: receivedAt, into: &actions)
            return "session paused"
        case .resume:
            session?.track.resumeByCommand()
            logPauseChange("resumed", receivedAt: receivedAt, into: &actions)
            return "session resumed"
        case .end:
            guard let open = session else {
                lifecycle.finish()
                return "session ended"
            }
            let endedAt =
                open.track.lastFixTime.map { TimeAnchor(source: .gps, seconds: $0.seconds) }
                ?? TimeAnchor(source: .system, seconds: systemTime)
            finish(open, reason: .command, endedAt: endedAt, receivedAt: receivedAt, into: &actions)
            return "session ended"
        }
    }

    /// A pause or resume by command: an event at the last fix and the new state, written at once.
    private mutating func logPauseChange(_ kind: String, receivedAt: Double, into actions: inout [SessionAction]) {
        guard let id = session?.id, !isRecovering else { return }
        actions.append(event(LoggedEvent(kind: kind, time: session?.track.lastFixTime), at: receivedAt))
        actions.append(.stateChanged(sessionID: id, state: lifecycle.state))
    }

    @discardableResult
    private mutating func begin(
        activity: Activity,
        at anchor: TimeAnchor,
        into actions: inout [SessionAction]
    ) -> String {
        let id = nextSessionID
        session = OpenSession(
            id: id,
            startedAt: anchor,
            track: makeTrack(activity),
            lastSample: 0,
            downSince: nil,
            recovering: false
        )
        nextSeq = 1
        actions.append(.begin(sessionID: id, activity: activity, startedAt: anchor))
        actions.append(
            event(
                LoggedEvent(
                    kind: "session_started",
                    time: anchor.source == .gps ? GPSTime(seconds: anchor.seconds) : nil,
                    detail: ["anchor": .text(anchor.source.rawValue), "started_at": .number(anchor.seconds)]
                ),
                at: nil
            )
        )
        return id
    }

    private mutating func abandon(endedAt: TimeAnchor?, into actions: inout [SessionAction]) {
        guard let open = session else { return }
        lifecycle = SessionLifecycle(state: .ending)
        finish(open, reason: .abandoned, endedAt: endedAt, receivedAt: nil, into: &actions)
    }

    private mutating func finish(
        _ open: OpenSession,
        reason: EndReason,
        endedAt: TimeAnchor?,
        receivedAt: Double?,
        into actions: inout [SessionAction]
    ) {
        actions.append(
            event(
                LoggedEvent(
                    kind: reason == .command ? "session_ended" : "session_abandoned",
                    time: open.track.lastFixTime
                ),
                at: receivedAt
            )
        )
        actions.append(.finish(sessionID: open.id, summary: open.track.summary, reason: reason, endedAt: endedAt))
        lifecycle.finish()
        lastEnded = open.id
        session = nil
    }

    /// Follows the core's auto-pause in the lifecycle.
    private mutating func follow(_ events: [SessionEvent]) {
        for sessionEvent in events {
            switch sessionEvent {
            case .autoPaused: lifecycle.autoPaused()
            case .autoResumed: lifecycle.autoResumed()
            default: break
            }
        }
    }

    private mutating func record(_ sessionEvent: SessionEvent, receivedAt: Double?) -> [SessionAction] {
        let before = lifecycle.state
        follow([sessionEvent])
        var actions = [event(sessionEvent.logged, at: receivedAt)]
        if lifecycle.state != before, let id = session?.id {
            actions.append(.stateChanged(sessionID: id, state: lifecycle.state))
        }
        return actions
    }

    private mutating func event(_ logged: LoggedEvent, at receivedAt: Double?) -> SessionAction {
        .recordEvent(
            sessionID: session?.id ?? lastEnded ?? nextSessionID,
            seq: takeSeq(),
            event: logged,
            receivedAt: receivedAt
        )
    }

    private mutating func takeSeq() -> Int {
        defer { nextSeq += 1 }
        return nextSeq
    }
}

extension Fix {
    /// Good enough to start a session on: a 2D/3D fix with a time and a real position.
    var isUsable: Bool {
        guard mode >= 2, time != nil, let position else { return false }
        return position.isPlausible
    }
}
