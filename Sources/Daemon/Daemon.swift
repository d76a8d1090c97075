import Bluetooth
import Config
import Control
import Foundation
import GPSDLink
import Logging
import ServiceLifecycle
import Store
import TrackCore

/// `wearbridge run` as a `Service`: storage and control socket first (then READY=1, without
/// waiting for gpsd), then the engine, the writer, gpsd and the control server as child tasks.
///
/// On graceful shutdown the producers stop, the engine commits what it holds and the writer
/// drains; an open session stays open, for the next start to resume.
public struct Daemon: Service {
    private let config: WearbridgeConfig
    private let store: SessionLog
    private let control: ControlServer
    private let controller: SessionController
    private let startup: [SessionAction]
    private let notifier: SystemdNotifier
    private let logger: Logger
    private let latencyTrace: LatencyTrace?

    /// Opens storage, recovers open sessions, binds the control socket and says READY=1.
    public static func prepare(
        config: WearbridgeConfig,
        environment: [String: String],
        latencyTracePath: String?,
        logger: Logger
    ) async throws(DaemonError) -> Daemon {
        do {
            let store = try SessionLog.open(directory: config.storageDirectory)
            let (controller, startup) = try recover(store: store, config: config, logger: logger)
            let trace = try latencyTracePath.map { try LatencyTrace(path: $0) }
            let control = try await ControlServer.bind(
                path: config.controlSocket,
                group: config.controlGroup,
                logger: logger
            )
            let notifier = SystemdNotifier(environment: environment)
            let state = controller.session.map { "recording session \($0.id)" } ?? "idle"
            notifier.ready(status: state)
            logger.info(
                "ready",
                metadata: ["storage": "\(store.path)", "control": "\(control.path)", "state": "\(state)"]
            )
            return Daemon(
                config: config,
                store: store,
                control: control,
                controller: controller,
                startup: startup,
                notifier: notifier,
                logger: logger,
                latencyTrace: trace
            )
        } catch let error as DaemonError {
            throw error
        } catch {
            throw DaemonError(error)
        }
    }

    /// Takes over the session a crash or power loss left open; older leftovers are closed as abandoned.
    private static func recover(
        store: SessionLog,
        config: WearbridgeConfig,
        logger: Logger
    ) throws -> (SessionController, [SessionAction]) {
        let open = try store.openSessions()
        var controller = SessionController(configuration: config.controller, nextSessionID: newSessionID())
        var actions: [SessionAction] = []
        for (index, stored) in open.enumerated() {
            guard let activity = Activity(rawValue: stored.activity),
                let source = TimeAnchor.Source(rawValue: stored.startAnchor)
            else {
                logger.error(
                    "cannot resume a session with unknown activity or anchor",
                    metadata: ["session": "\(stored.id)"]
                )
                continue
            }
            let journal = try store.journal(of: stored.id)
            var recovered = SessionController(
                configuration: config.controller,
                nextSessionID: newSessionID(),
                recovering: stored.id,
                activity: activity,
                startedAt: TimeAnchor(source: source, seconds: stored.startedAt),
                journal: journal.entries,
                nextSeq: journal.nextSeq,
                restartedAt: MonotonicClock.now()
            )
            logger.info(
                "resuming session",
                metadata: [
                    "session": "\(stored.id)", "entries": "\(journal.entries.count)",
                    "distance_m": "\(recovered.session?.track.distance ?? 0)",
                ]
            )
            if index < open.count - 1 {
                // Only one session can be open; an older one is closed where it stopped.
                actions += recovered.abandonNow()
            } else {
                actions += recovered.recoveredActions()
                controller = recovered
            }
        }
        return (controller, actions)
    }

    static func newSessionID() -> String { UUID().uuidString.lowercased() }

    public func run() async throws {
        let (inputs, input) = AsyncStream.makeStream(of: EngineInput.self)
        let (jobs, job) = AsyncStream.makeStream(of: StoreWriter.Job.self)
        let writer = StoreWriter(log: store, logger: logger)
        let gpsd = GPSDConnection(endpoint: config.gpsd.link, logger: logger)
        let tick = min(1, notifier.watchdogInterval ?? 1)
        let control = self.control
        let notifier = self.notifier
        let strapLink = self.strapLink()
        let memory = RememberedStrap(directory: config.storageDirectory)
        let logger = self.logger
        let remember: @Sendable (BluetoothAddress) -> Void = { address in
            do {
                try memory.save(address)
                logger.notice("remembered the strap", metadata: ["strap": "\(address)", "file": "\(memory.path)"])
            } catch {
                logger.warning("cannot remember the strap", metadata: ["file": "\(memory.path)", "error": "\(error)"])
            }
        }
        let startup = self.startup
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await writer.run(jobs) }
            group.addTask { [controller, store, logger, config, latencyTrace] in
                // The engine lives and dies on this one task.
                let engine = Engine(
                    controller: controller,
                    store: store,
                    writer: job,
                    notifier: notifier,
                    logger: logger,
                    gpsLostAfter: config.gpsLostAfter,
                    latencyTrace: latencyTrace,
                    strapConfigured: config.strap.choice != .none,
                    newSessionID: Self.newSessionID
                )
                await engine.run(inputs, startup: startup)
            }
            group.addTask {
                // Closed, not cancelled, at shutdown: see `ControlServer.serve`.
                await withGracefulShutdownHandler {
                    await Self.serve(control, input: input)
                } onGracefulShutdown: {
                    control.shutdown()
                }
            }
            group.addTask {
                // Producers stop at graceful shutdown; then the engine drains and the writer commits.
                await cancelWhenGracefulShutdown {
                    await withTaskGroup(of: Void.self) { producers in
                        producers.addTask { await gpsd.run { input.yield(.gpsd($0)) } }
                        producers.addTask { await Self.ticks(every: tick, input: input) }
                        if let strap = strapLink {
                            producers.addTask {
                                await strap.run { event in
                                    if case .chosen(let address) = event { remember(address) }
                                    input.yield(.strap(event))
                                }
                            }
                        }
                    }
                }
                notifier.stopping()
                input.finish()
            }
        }
        logger.info("stopped")
    }

    /// The strap link the configuration asks for: by address, the remembered first-seen one, or a scan.
    private func strapLink() -> StrapLink? {
        let strap = config.strap
        let target: StrapLink.Target
        switch strap.choice {
        case .none:
            return nil
        case .address(let text, let type):
            guard let address = BluetoothAddress(text, kind: BluetoothAddress.Kind(rawValue: type) ?? .random) else {
                return nil
            }
            target = .address(address)
        case .firstSeen:
            let (remembered, problem) = RememberedStrap(directory: config.storageDirectory).load()
            if let problem { logger.warning("remembered strap unreadable", metadata: ["problem": "\(problem)"]) }
            target = remembered.map { .address($0) } ?? .firstSeen
        }
        logger.info("heart-rate strap", metadata: ["target": "\(target)", "adapter": "\(strap.adapter)"])
        return StrapLink(target: target, adapter: strap.adapter, silenceAfter: strap.silenceAfter, logger: logger)
    }

    private static func serve(_ control: ControlServer, input: AsyncStream<EngineInput>.Continuation) async {
        await control.serve { request in
            await withCheckedContinuation { continuation in
                let result = input.yield(.control(request, respond: { continuation.resume(returning: $0) }))
                if case .terminated = result {
                    continuation.resume(returning: .failure("wearbridge is shutting down", id: request.id))
                }
            }
        }
    }

    private static func ticks(every interval: Double, input: AsyncStream<EngineInput>.Continuation) async {
        while !Task.isCancelled {
            do { try await Task.sleep(for: .milliseconds(Int(interval * 1000))) } catch { return }
            input.yield(.tick)
        }
    }
}

extension WearbridgeConfig.GPSDEndpoint {
    /// The configured endpoint as the gpsd link takes it (also used by `wearbridge gps`).
    public var link: GPSDConnection.Endpoint {
        switch self {
        case .tcp(let host, let port): .tcp(host: host, port: port)
        case .unix(let path): .unix(path: path)
        }
    }
}
