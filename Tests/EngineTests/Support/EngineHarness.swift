import Course
import Engine
import GATT
import Gait
import HeartRate
import RaceCore
import SessionCore
import Testing
import TrackCore

/// The engine with a manual clock, scripted inputs, and a stand-in for the store's writer: a list
/// of committed rows ("the disk") and an outcome chosen by the test. Every reply is checked as it
/// comes: a command's reply only once its row is on the disk, and one reply per token.
struct EngineHarness {
    enum Disk {
        case healthy
        case failing(StorageFailure)
    }

    var engine: SessionEngine
    var now: Instant
    /// Every action so far, in order.
    private(set) var actions: [EngineAction] = []
    /// Rows committed, in commit order: the session's and the outbox's.
    private(set) var logged: [LogRow] = []
    /// The session rows committed, in commit order.
    var disk: [SessionRow] { logged.compactMap { if case .session(let row) = $0 { row } else { nil } } }
    private(set) var commits = 0
    private(set) var failedAttempts = 0
    var health = Disk.healthy
    /// Store requests handed out and not yet answered.
    private(set) var requests: [StoreRequest] = []
    /// Answer store requests as they come (off: the test answers them by hand).
    var autoSettle = true
    private var nextToken: UInt64 = 1
    private(set) var replies: [ReplyToken: [EngineReply]] = [:]

    static let full = StorageFailure(.full, "database or disk is full (/data/wearbridge.sqlite)")

    init(
        _ configuration: SessionController.Configuration = .init(),
        strap: Bool = false,
        maxPendingRows: Int = 20_000,
        open: [RecoveredSession] = [],
        disk: [SessionRow] = [],
        startingAt monotonic: Double = 1000,
        phoneLink: Bool = false,
        readings: Bool = false,
        speedSensors: [SpeedSensorKind] = [],
        imu: Placement? = nil,
        courses: CourseShelf = CourseShelf()
    ) {
        logged = disk.map(LogRow.session)
        let engineConfiguration = SessionEngine.Configuration(
            session: configuration,
            strapConfigured: strap,
            speedSensors: speedSensors,
            retryInterval: 2,
            maxPendingRows: maxPendingRows,
            phoneLink: phoneLink,
            readings: readings,
            imu: imu
        )
        now = Instant(monotonic: monotonic, system: 1_700_000_000)
        engine = SessionEngine.recovering(
            open,
            configuration: engineConfiguration,
            ids: SessionIDGenerator(seed: 7),
            now: now,
            courses: courses
        )
    }

    // MARK: Inputs

    @discardableResult
    mutating func send(_ input: EngineInput) -> [EngineAction] {
        var produced = engine.handle(input, now: now)
        record(produced)
        if autoSettle { produced += settle() }
        return produced
    }

    /// Fixes as the gpsd edge hands them over, each at its own receive instant.
    mutating func feed(_ fixes: [Fix]) {
        for var fix in fixes {
            if let at = fix.receivedAt, at > now.monotonic { now.monotonic = at }
            let receivedAt = fix.receivedAt ?? now.monotonic
            fix.receivedAt = receivedAt
            send(.gps(.fix(fix, receivedAt: receivedAt)))
        }
    }

    /// Fixes with the daemon's once-a-second tick after each, as a live run has them.
    mutating func ride(_ fixes: [Fix]) {
        for fix in fixes {
            feed([fix])
            send(.tick)
        }
    }

    /// Moves the clock on to `monotonic`, ticking once a second on the way.
    mutating func tick(until monotonic: Double) {
        while now.monotonic + 1 <= monotonic {
            now.monotonic += 1
            send(.tick)
        }
        now.monotonic = monotonic
        send(.tick)
    }

    /// A command with a fresh token; the token, to look up its replies.
    @discardableResult
    mutating func command(
        _ command: SessionCommand,
        id: String,
        activity: Activity? = nil,
        metres: Double? = nil,
        course: String? = nil
    ) -> ReplyToken {
        let token = ReplyToken(nextToken)
        nextToken += 1
        send(
            .command(CommandRequest(command, id: id, activity: activity, metres: metres, token: token, course: course))
        )
        return token
    }

    /// A command from the phone, valid until the monotonic instant `expiresAt`.
    @discardableResult
    mutating func phoneCommand(_ command: SessionCommand, id: String, expiresAt: Double?) -> ReplyToken {
        let token = ReplyToken(nextToken)
        nextToken += 1
        send(.command(CommandRequest(command, id: id, token: token, origin: .phone(expiresAt: expiresAt))))
        return token
    }

    /// A course's part from the phone.
    @discardableResult
    mutating func courseCommand(id: String, _ part: CoursePart) -> ReplyToken {
        let token = ReplyToken(nextToken)
        nextToken += 1
        send(.command(CommandRequest(.course, id: id, token: token, origin: .phone(expiresAt: nil), coursePart: part)))
        return token
    }

    /// A race's command from the phone (arm, follow, cancel, or a partner event).
    @discardableResult
    mutating func raceCommand(_ command: SessionCommand, id: String, _ race: RaceInstruction) -> ReplyToken {
        let token = ReplyToken(nextToken)
        nextToken += 1
        send(.command(CommandRequest(command, id: id, token: token, origin: .phone(expiresAt: nil), race: race)))
        return token
    }

    mutating func status() -> SessionStatus? {
        let token = ReplyToken(nextToken)
        nextToken += 1
        send(.status(token))
        guard case .status(let status)? = replies[token]?.first else { return nil }
        return status
    }

    /// Answers every store request handed out, as the disk stands; what that produced.
    @discardableResult
    mutating func settle() -> [EngineAction] {
        var produced: [EngineAction] = []
        while !requests.isEmpty { produced += settleOne() }
        return produced
    }

    /// Answers the oldest store request handed out.
    @discardableResult
    mutating func settleOne() -> [EngineAction] {
        var produced: [EngineAction] = []
        if !requests.isEmpty {
            let request = requests.removeFirst()
            let report: StoreReport
            switch (request, health) {
            case (.write(let batch), .healthy):
                logged += batch.rows
                commits += 1
                report = .committed(batch: batch.id)
            case (.write(let batch), .failing(let failure)):
                failedAttempts += 1
                report = .failed(batch: batch.id, failure)
            case (.lookUp(let id), _):
                report = .lookedUp(commandID: id, .success(storedReply(id)))
            case (.close, _):
                report = .closed
            }
            let more = engine.handle(.storage(report), now: now)
            record(more)
            produced += more
        }
        return produced
    }

    // MARK: Looking at what happened

    func reply(_ token: ReplyToken) -> EngineReply? {
        let all = replies[token] ?? []
        #expect(all.count <= 1, "token \(token) answered \(all.count) times")
        return all.first
    }

    var announcements: [Announcement] {
        actions.compactMap { if case .announce(let announcement) = $0 { announcement } else { nil } }
    }

    var events: [SessionEvent] { announcements.map(\.event) }

    /// Event rows on the disk.
    var storedEvents: [(seq: Int, announcement: Announcement)] {
        disk.compactMap { if case .event(let seq, let announcement) = $0 { (seq, announcement) } else { nil } }
    }

    /// What the log would give back to rebuild `session`: its fixes, beats and commands by sequence.
    func journal(of session: String) -> RecoveredSession? {
        var entries: [(Int, SessionController.JournalEntry)] = []
        var start: (Activity, TimeAnchor)?
        var maxSeq = 0
        for row in disk {
            switch row {
            case .begin(session, let activity, let anchor, _, _, _): start = (activity, anchor)
            case .fix(session, let seq, let fix, _):
                entries.append((seq, .fix(fix)))
                maxSeq = max(maxSeq, seq)
            case .heartRate(session, let seq, let sample, _):
                entries.append((seq, .heartRate(sample)))
                maxSeq = max(maxSeq, seq)
            case .command(session, let seq, let reply, _):
                entries.append((seq, .command(reply.command, id: reply.commandID)))
                maxSeq = max(maxSeq, seq)
            case .event(let seq, let announcement) where announcement.sessionID == session:
                maxSeq = max(maxSeq, seq)
            default: break
            }
        }
        guard let (activity, anchor) = start else { return nil }
        entries.sort { $0.0 < $1.0 }
        return RecoveredSession(
            id: session,
            activity: activity,
            startedAt: anchor,
            journal: entries.map(\.1),
            nextSeq: maxSeq + 1
        )
    }

    var sessionID: String? { engine.controller.session?.id }

    // MARK: Checks

    private func storedReply(_ id: String) -> CommandReply? {
        for case .command(_, _, let reply, _) in disk where reply.commandID == id { return reply }
        return nil
    }

    private mutating func record(_ produced: [EngineAction]) {
        for action in produced {
            switch action {
            case .persist(let request):
                requests.append(request)
            case .reply(let token, let reply):
                if case .command(let answer) = reply {
                    #expect(
                        storedReply(answer.commandID) != nil,
                        "\(answer.commandID) acknowledged before it is on disk"
                    )
                }
                replies[token, default: []].append(reply)
            default:
                break
            }
        }
        actions += produced
    }
}
