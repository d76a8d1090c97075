import Energy
import TrackCore

/// A session a crash or power loss left open, as the log gives it back.
public struct RecoveredSession: Sendable {
    public var id: String
    public var activity: Activity
    public var startedAt: TimeAnchor
    /// Its fixes, beats and commands in the order they were logged.
    public var journal: [SessionController.JournalEntry]
    /// The first sequence number not used yet.
    public var nextSeq: Int
    /// gps, or for an indoor session its footpod or treadmill.
    public var distanceSource: DistanceSource
    /// The body mass, load and walking model it began with; nil: it costs no energy.
    public var energy: EnergySettings?

    public init(
        id: String,
        activity: Activity,
        startedAt: TimeAnchor,
        journal: [SessionController.JournalEntry],
        nextSeq: Int,
        distanceSource: DistanceSource = .gps,
        energy: EnergySettings? = nil
    ) {
        self.id = id
        self.activity = activity
        self.startedAt = startedAt
        self.journal = journal
        self.nextSeq = nextSeq
        self.distanceSource = distanceSource
        self.energy = energy
    }
}

extension SessionController {
    /// Rebuilds an open session from its logged inputs: the core is deterministic, so the same
    /// inputs give the same distance, timers and state, and nothing is counted twice.
    public init(
        recovering recovered: RecoveredSession,
        configuration: Configuration,
        ids: SessionIDGenerator,
        restartedAt: Double,
        restartedUTC: Double? = nil
    ) {
        self.init(configuration: configuration, ids: ids)
        lifecycle = SessionLifecycle(state: .starting)
        lifecycle.confirmStart()
        session = OpenSession(
            id: recovered.id,
            startedAt: recovered.startedAt,
            track: makeTrack(
                recovered.activity,
                indoor: recovered.distanceSource == .gps ? nil : recovered.distanceSource,
                energy: recovered.energy
            ),
            lastSample: restartedAt,
            downSince: nil,
            recovering: true
        )
        var discarded = SessionOutput()
        for entry in recovered.journal {
            switch entry {
            case .fix(let fix): ingest(fix, into: &discarded)
            case .heartRate(let sample): heartRate(sample, into: &discarded)
            case .speed(let sample): speed(sample, into: &discarded)
            case .pressure(let sample): pressure(sample, into: &discarded)
            case .command(.start, let commandID):
                // The command that began this session: its answer stays "started".
                ledger.record(
                    CommandReply(
                        commandID: commandID,
                        command: .start,
                        accepted: true,
                        message: "session started",
                        sessionID: recovered.id,
                        state: .active
                    )
                )
            case .command(let command, _) where !command.isSessionCommand:
                // A race's command changed nothing in the session; its answer is in the log.
                continue
            case .command(let command, let commandID):
                _ = handle(command, id: commandID, receivedAt: restartedAt, systemTime: 0, into: &discarded)
            }
        }
        session?.recovering = false
        session?.lastSample = restartedAt
        let lastFixTime = session?.track.lastFixTime
        if recovered.distanceSource == .gps {
            session?.downSince = lastFixTime
        } else {
            // Indoors the clock goes on from the system's UTC now (durations on the monotonic
            // clock again); without it, from the last logged instant, as if no time had passed.
            let utc = restartedUTC ?? lastFixTime?.seconds ?? recovered.startedAt.seconds
            session?.indoorClock = (utc, restartedAt)
        }
        nextSeq = recovered.nextSeq
    }

    /// The event that says a restarted daemon took the session over.
    public mutating func recovered(into output: inout SessionOutput) {
        guard let session else { return }
        let event = SessionEvent.recovered(distance: session.track.distance, lastFix: session.track.lastFixTime)
        record(event, time: session.track.lastFixTime, receivedAt: nil, into: &output)
    }

    /// Closes a recovered session as abandoned at its last fix (a newer one is open).
    public mutating func abandonNow(into output: inout SessionOutput) {
        let last = session?.track.lastFixTime.map { TimeAnchor(source: .gps, seconds: $0.seconds) }
        abandon(endedAt: last, into: &output)
    }
}
