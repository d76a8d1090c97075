import Bluetooth
import Control
import Foundation
import GPSD
import GPSDLink
import Logging
import Store
import TrackCore

/// The daemon's main loop: one input at a time into the pure `SessionController`, its actions out
/// to the writer and to whoever asked.
///
/// Rows are committed about once a second (`tick`); lifecycle changes and commands at once, and a
/// command is answered only after its batch is durable.
final class Engine {
    private var controller: SessionController
    private var merger = LiveEpochMerger()
    private var pending: [SessionAction] = []
    private var acknowledgements: [@Sendable () -> Void] = []
    private let writer: AsyncStream<StoreWriter.Job>.Continuation
    private let store: SessionLog
    private let notifier: SystemdNotifier
    private let logger: Logger
    private let newSessionID: @Sendable () -> String
    private let latencyTrace: LatencyTrace?
    private let gpsLostAfter: Double
    private var malformedLines = 0
    private var lastGoodFix: Double?
    /// The figures last written, so that a quiet second (GPS lost, daemon idle) costs no commit.
    private var lastLive: SessionSummary?
    private let maxLoggedMalformed = 50
    /// The strap as `status` shows it; nil when none is configured.
    private var strap: StrapState?

    init(
        controller: SessionController,
        store: SessionLog,
        writer: AsyncStream<StoreWriter.Job>.Continuation,
        notifier: SystemdNotifier,
        logger: Logger,
        gpsLostAfter: Double,
        latencyTrace: LatencyTrace?,
        strapConfigured: Bool = false,
        newSessionID: @escaping @Sendable () -> String
    ) {
        strap = strapConfigured ? StrapState() : nil
        self.controller = controller
        self.store = store
        self.writer = writer
        self.notifier = notifier
        self.logger = logger
        self.gpsLostAfter = gpsLostAfter
        self.latencyTrace = latencyTrace
        self.newSessionID = newSessionID
    }

    /// Runs until `inputs` ends (shutdown), then commits what is left and closes the writer.
    func run(_ inputs: AsyncStream<EngineInput>, startup: [SessionAction]) async {
        pending = startup
        commit()
        for await input in inputs { handle(input) }
        // Shutdown: the held epoch and the open session's figures are written; the session stays
        // open, to be resumed by the next start.
        if let fix = merger.flushAll() { ingest(fix) }
        commit()
        latencyTrace?.flush()
        writer.finish()
    }

    private func handle(_ input: EngineInput) {
        switch input {
        case .gpsd(let event): handle(event)
        case .strap(let event): handle(event)
        case .control(let request, let respond): handle(request, respond)
        case .tick:
            let now = MonotonicClock.now()
            if let fix = merger.flush(now: now) { ingest(fix) }
            pending += controller.tick(receivedAt: now)
            commit()
            latencyTrace?.flush()
            notifier.watchdog()
        }
    }

    private func handle(_ event: GPSDLinkEvent) {
        let now = MonotonicClock.now()
        switch event {
        case .connected:
            pending += controller.gpsd(connected: true, receivedAt: now)
        case .disconnected:
            if let fix = merger.flushAll() { ingest(fix) }
            pending += controller.gpsd(connected: false, receivedAt: now)
        case .message(.tpv(let tpv), let receivedAt):
            for fix in merger.add(tpv.fix(receivedAt: receivedAt), now: receivedAt) { ingest(fix) }
        case .message(.device(let device), let receivedAt):
            if let active = device.isActive {
                logger.info("gps device", metadata: ["path": "\(device.path ?? "?")", "active": "\(active)"])
                pending += controller.device(path: device.path ?? "", activated: active, receivedAt: receivedAt)
            }
        case .message(.version(let version), _):
            logger.info("gpsd version", metadata: ["gpsd.release": "\(version.release ?? "?")"])
        case .message(.error(let message), _):
            logger.warning("gpsd reported an error", metadata: ["gpsd.error": "\(message)"])
        case .message:
            break
        case .malformed(let reason, let line):
            malformedLines += 1
            if malformedLines <= maxLoggedMalformed {
                logger.warning(
                    "malformed gpsd line",
                    metadata: ["line": "\(line)", "error": "\(reason)", "count": "\(malformedLines)"]
                )
            }
        }
    }

    private func handle(_ event: StrapLinkEvent) {
        let previousLocation = strap?.location
        strap?.update(event)
        switch event.sessionInput {
        case .beat(let sample)?:
            pending += controller.heartRate(sample)
        case .event(let logged, let receivedAt)?:
            // Where the strap is worn is logged when it changes, not at every reconnection.
            if logged.kind == "strap_location", previousLocation == strap?.location { return }
            if logged.kind != "hrm_malformed" {
                var metadata: Logger.Metadata = ["event": "\(logged.kind)"]
                for (key, value) in logged.detail { metadata[key] = "\(value)" }
                logger.info("strap", metadata: metadata)
            }
            pending += controller.strap(logged, receivedAt: receivedAt)
        case nil:
            break
        }
    }

    private func ingest(_ fix: Fix) {
        let actions = controller.ingest(fix)
        if let time = fix.time { latencyTrace?.record(epoch: time.seconds, ingestedAt: MonotonicClock.now()) }
        if fix.mode >= 2, fix.position != nil { lastGoodFix = fix.receivedAt }
        pending += actions
        if actions.contains(where: \.isLifecycle) {
            renewSessionID(after: actions)
            commit()
        }
    }

    private func handle(_ request: ControlRequest, _ respond: @escaping @Sendable (ControlReply) -> Void) {
        let now = MonotonicClock.now()
        guard let command = SessionCommand(rawValue: request.command.rawValue) else {
            respond(
                ControlReply(
                    ok: true,
                    command: "status",
                    state: controller.lifecycle.state.name,
                    sessionID: controller.session?.id,
                    status: status(now: now)
                )
            )
            return
        }
        guard let id = request.id else {
            respond(.failure("\(command.rawValue) needs an \"id\" so that a retry is not applied twice"))
            return
        }
        var activity: Activity?
        if let name = request.activity {
            guard let parsed = Activity(rawValue: name) else {
                let allowed = Activity.allCases.map(\.rawValue).joined(separator: ", ")
                respond(.failure("unknown activity \"\(name)\"; one of \(allowed)", id: id))
                return
            }
            activity = parsed
        }
        if controller.reply(for: id) == nil {
            do {
                if let stored = try store.reply(toCommand: id) {
                    respond(ControlReply(stored))
                    return
                }
            } catch {
                logger.error("cannot read command replies", metadata: ["error": "\(error)"])
            }
        }
        let (reply, actions) = controller.handle(
            command,
            id: id,
            activity: activity,
            receivedAt: now,
            systemTime: MonotonicClock.system()
        )
        logger.info(
            "command",
            metadata: [
                "command": "\(command.rawValue)", "id": "\(id)", "accepted": "\(reply.accepted)",
                "message": "\(reply.message)",
            ]
        )
        renewSessionID(after: actions)
        pending += actions
        acknowledgements.append { respond(ControlReply(reply)) }
        commit()
    }

    private func renewSessionID(after actions: [SessionAction]) {
        if actions.contains(where: { if case .begin = $0 { true } else { false } }) {
            controller.nextSessionID = newSessionID()
        }
    }

    private func commit() {
        var live = controller.session.map { (sessionID: $0.id, summary: $0.track.summary) }
        if live?.summary == lastLive { live = nil }
        guard !pending.isEmpty || live != nil || !acknowledgements.isEmpty else { return }
        if let live { lastLive = live.summary }
        writer.yield(StoreWriter.Job(batch: LogBatch(actions: pending, live: live), acknowledgements: acknowledgements))
        pending.removeAll(keepingCapacity: true)
        acknowledgements.removeAll()
    }

    private func status(now: Double) -> StatusReport {
        let age = lastGoodFix.map { now - $0 }
        let gps = StatusReport.GPS(
            gpsdConnected: controller.gpsdConnected,
            mode: controller.lastFix?.mode,
            horizontalError: controller.lastFix?.gatingError,
            lastFixAge: age,
            lost: !controller.gpsdConnected || (age ?? .infinity) > gpsLostAfter
        )
        let heartRate = strap?.report(now: now)
        guard let session = controller.session else {
            return StatusReport(state: controller.lifecycle.state.name, gps: gps, heartRate: heartRate)
        }
        let summary = session.track.summary
        let speed = session.track.currentSpeed ?? 0
        return StatusReport(
            state: controller.lifecycle.state.name,
            sessionID: session.id,
            activity: summary.activity.rawValue,
            distance: summary.distance,
            elapsed: summary.elapsed,
            moving: summary.moving,
            paused: summary.paused,
            averagePace: summary.averagePace,
            currentPace: speed > 0.3 ? 1000 / speed : nil,
            fixesAccepted: summary.accepted,
            fixesRejected: summary.rejectedTotal,
            gps: gps,
            heartRate: heartRate
        )
    }
}

extension SessionAction {
    /// Actions that change a session's life: written at once, not with the next batch.
    var isLifecycle: Bool {
        switch self {
        case .begin, .stateChanged, .finish: true
        case .recordFix, .recordEvent, .recordCommand, .recordHeartRate: false
        }
    }
}

extension ControlReply {
    init(_ reply: CommandReply) {
        self.init(
            ok: reply.accepted,
            id: reply.commandID,
            command: reply.command.rawValue,
            message: reply.message,
            state: reply.state.name,
            sessionID: reply.sessionID,
            error: reply.accepted ? nil : reply.message
        )
    }
}
