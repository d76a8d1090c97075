import ATT
import Bluetooth
import CertificateFingerprint
import Config
import Control
import Engine
import GATT
import GPSDLink
import Identity
import Logging
import PhoneLinkWire
import ServiceLifecycle
import SessionCore
import Store
import TrackCore
import WearableLinkClient

/// `wearbridge run` as a `Service`: storage and the control socket first (then READY=1, without
/// waiting for gpsd), then the engine's loop, the store's writer, the sinks and the producers,
/// each on a child task.
///
/// Producers (gpsd, the strap, ticks) stop at graceful shutdown; the engine then writes the last
/// batch, closes the writer and answers every request still waiting (durable, or an error); the
/// control socket stops accepting at once. An open session stays open, for the next start.
public struct Daemon: Service {
    private let config: WearbridgeConfig
    private let store: SessionLog
    private let control: ControlServer
    private let engine: SessionEngine
    private let sinks: [any SessionSink]
    private let notifier: SystemdNotifier
    private let logger: Logger
    private let phone: PhoneLinkSettings?
    private let cues: CueSetup?

    /// Opens storage, recovers open sessions, binds the control socket and says READY=1.
    /// `sinks` listen beside the journal (tests register their own).
    public static func prepare(
        config: WearbridgeConfig,
        environment: [String: String],
        sinks: [any SessionSink] = [],
        logger: Logger
    ) async throws(DaemonError) -> Daemon {
        do {
            let store = try SessionLog.open(directory: config.storageDirectory)
            let phone = try phoneSettings(config, logger: logger)
            let cues = config.cues.enabled ? try CueSetup(config: config, environment: environment) : nil
            if let cues {
                logger.info(
                    "audio cues",
                    metadata: [
                        "language": "\(cues.catalog.language)", "voice": "\(cues.voice.voice)",
                        "output": "\(config.cues.output.rawValue)", "route now": "\(cues.voice.output.route.rawValue)",
                    ]
                )
            }
            let engine = try recover(store: store, config: config, logger: logger)
            let control = try await ControlServer.bind(
                path: config.controlSocket,
                group: config.controlGroup,
                logger: logger
            )
            let notifier = SystemdNotifier(environment: environment)
            let state = engine.controller.session.map { "recording session \($0.id)" } ?? "idle"
            notifier.ready(status: state)
            logger.info(
                "ready",
                metadata: ["storage": "\(store.path)", "control": "\(control.path)", "state": "\(state)"]
            )
            return Daemon(
                config: config,
                store: store,
                control: control,
                engine: engine,
                sinks: sinks,
                notifier: notifier,
                logger: logger,
                phone: phone,
                cues: cues
            )
        } catch let error as DaemonError {
            throw error
        } catch {
            throw DaemonError(error)
        }
    }

    /// The engine, with the session a crash or power loss left open taken over (older leftovers
    /// are closed as abandoned).
    private static func recover(
        store: SessionLog,
        config: WearbridgeConfig,
        logger: Logger
    ) throws -> SessionEngine {
        var open: [RecoveredSession] = []
        for stored in try store.openSessions() {
            guard let activity = Activity(rawValue: stored.activity),
                let source = TimeAnchor.Source(rawValue: stored.startAnchor)
            else {
                logger.error(
                    "cannot resume a session with unknown activity or anchor",
                    metadata: ["session": "\(stored.id)", "activity": "\(stored.activity)"]
                )
                continue
            }
            let journal = try store.journal(of: stored.id)
            open.append(
                RecoveredSession(
                    id: stored.id,
                    activity: activity,
                    startedAt: TimeAnchor(source: source, seconds: stored.startedAt),
                    journal: journal.entries,
                    nextSeq: journal.nextSeq,
                    distanceSource: DistanceSource(rawValue: stored.distanceSource) ?? .gps,
                    energy: stored.energy
                )
            )
            logger.info(
                "resuming session",
                metadata: ["session": "\(stored.id)", "entries": "\(journal.entries.count)"]
            )
        }
        var session = config.controller
        // The stride's calibration so far, learnt outdoors in earlier sessions, applied indoors: the
        // footpod's, or where none is configured the IMU's steps', by where it is worn.
        var footpod: String?
        if case .address(let address, _) = config.footpod.choice { footpod = address }
        let stride: (kind: String, sensor: String?)? =
            config.footpod.choice != .none
            ? ("footpod", footpod) : config.imuPlacement.map { ("steps", SessionEngine.stepsSensor($0)) }
        if let stride {
            session.footpodStretches = try store.calibrationStretches(footpod: stride.sensor)
            var metadata: Logger.Metadata = [
                "stretches": "\(session.footpodStretches.count)",
                "factor": "\(FootpodCalibration(stretches: session.footpodStretches).factors.factors)",
            ]
            if stride.kind == "steps" { metadata["sensor"] = "\(stride.sensor ?? "")" }
            logger.info("\(stride.kind) calibration", metadata: metadata)
        }
        let configuration = SessionEngine.Configuration(
            session: session,
            strapConfigured: config.strap.choice != .none,
            speedSensors: SpeedSensorKind.allCases.filter { config.speedSensor($0).choice != .none },
            phoneLink: config.phone != nil,
            readings: config.cues.enabled,
            barometer: config.barometer.choice != .off,
            imu: config.imuPlacement
        )
        var engine = SessionEngine.recovering(
            open,
            configuration: configuration,
            ids: SessionIDGenerator(seed: UInt64.random(in: .min ... .max)),
            now: .now(),
            courses: try courseShelf(store, logger: logger)
        )
        if let session = engine.controller.session {
            logger.info(
                "resumed",
                metadata: ["session": "\(session.id)", "distance_m": "\(session.track.distance)"]
            )
            if let (name, track) = try store.courseFollowed(by: session.id) {
                if engine.follow(recovered: name, track: track) {
                    logger.info(
                        "following the session's course again",
                        metadata: ["course": "\(name)", "positions": "\(track.count)"]
                    )
                } else {
                    logger.warning(
                        "the session's course is no longer kept: not followed",
                        metadata: ["course": "\(name)"]
                    )
                }
            }
            if let (race, leaderIsMe) = try store.race(of: session.id) {
                engine.follow(recovered: race, leaderIsMe: leaderIsMe, at: .now())
                logger.info(
                    "following the session's race again",
                    metadata: ["run": "\(race.run)", "partner": "\(race.partner)"]
                )
            }
        }
        return engine
    }

    /// The courses the log keeps and the parts of those still arriving; a kept course this build
    /// cannot read is said and left out.
    private static func courseShelf(_ store: SessionLog, logger: Logger) throws -> CourseShelf {
        var kept: [CourseShelf.Kept] = []
        for stored in try store.courses() {
            do {
                kept.append(
                    CourseShelf.Kept(id: stored.id, course: try CourseWire.decode(stored.bytes), bytes: stored.bytes)
                )
            } catch {
                logger.warning(
                    "a kept course cannot be read",
                    metadata: ["course": "\(stored.name)", "error": "\(error)"]
                )
            }
        }
        let parts = try store.courseParts()
        if !kept.isEmpty || !parts.isEmpty {
            logger.info("courses", metadata: ["kept": "\(kept.count)", "parts_arriving": "\(parts.count)"])
        }
        return CourseShelf(kept: kept, parts: parts)
    }

    public func run() async throws {
        let (inputs, continuation) = AsyncStream.makeStream(of: EngineInput.self)
        let (requests, storeRequests) = AsyncStream.makeStream(of: StoreRequest.self)
        let router = ReplyRouter(logger: logger)
        let inbox = EngineInbox(continuation: continuation, router: router)
        var sinks: [any SessionSink] = [JournalSink(logger: logger)] + self.sinks
        let (outboxGrew, outboxSignal) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let writer = StoreWriter(log: store, logger: logger, outboxGrew: phone == nil ? nil : outboxSignal)
        var producers = self.producers(outboxGrew: outboxGrew)
        if let cues {
            // The rules hear the engine as a sink; the speaker plays on a task of its own.
            let schedule = CueSchedule(settings: cues.settings)
            sinks.append(
                CueSink(schedule: schedule, report: { inbox.send(.cue($0)) }, catalog: cues.catalog, units: cues.units)
            )
            producers.append(
                CueSpeaker(
                    schedule: schedule,
                    voice: cues.voice,
                    catalog: cues.catalog,
                    units: cues.units,
                    logger: logger
                )
            )
        }
        let fanOut = SinkFanOut(sinks: sinks, logger: logger)
        let notifier = self.notifier
        let (alarmInstants, alarms) = AsyncStream.makeStream(of: Double.self)
        producers.append(AlarmProducer(instants: alarmInstants))
        let sources = producers.filter { $0.role == .source }
        let requesters = producers.filter { $0.role == .requester }
        let loop = EngineLoop(
            engine: engine,
            store: storeRequests,
            router: router,
            sinks: fanOut,
            notifier: notifier,
            strapMemory: RememberedStrap(directory: config.storageDirectory),
            alarms: alarms,
            logger: logger
        )
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await writer.run(requests) { continuation.yield(.storage($0)) } }
            group.addTask { await fanOut.run() }
            group.addTask {
                // The engine lives and dies on this one task.
                var loop = loop
                await loop.run(inputs)
                continuation.finish()
                storeRequests.finish()
            }
            for requester in requesters {
                group.addTask { await requester.run(into: inbox) }
            }
            group.addTask {
                await cancelWhenGracefulShutdown {
                    await withTaskGroup(of: Void.self) { running in
                        for source in sources { running.addTask { await source.run(into: inbox) } }
                    }
                }
                notifier.stopping()
                inbox.send(.shutdown)
            }
        }
        logger.info("stopped")
    }

    /// The producers this configuration asks for: gpsd, ticks, the control socket, and the strap
    /// when one is set.
    private func producers(outboxGrew: AsyncStream<Void>) -> [any EngineProducer] {
        var producers: [any EngineProducer] = [
            GPSDProducer(connection: GPSDConnection(endpoint: config.gpsd.link, logger: logger), logger: logger),
            TickProducer(interval: min(1, notifier.watchdogInterval ?? 1)),
            ControlProducer(server: control, logger: logger),
        ]
        if let strap = strapLink() { producers.append(StrapProducer(link: strap)) }
        for kind in SpeedSensorKind.allCases {
            if let link = speedSensorLink(kind) { producers.append(SpeedSensorProducer(link: link)) }
        }
        switch config.barometer.choice {
        case .off: break
        case .auto: producers.append(BarometerProducer(choice: nil, interval: config.barometer.interval))
        case .named(let name): producers.append(BarometerProducer(choice: name, interval: config.barometer.interval))
        }
        if let imu = config.imu {
            switch imu.choice {
            case .off: break
            case .auto: producers.append(IMUProducer(choice: nil, rate: imu.rate))
            case .named(let name): producers.append(IMUProducer(choice: name, rate: imu.rate))
            }
        }
        if let phone {
            let client = PhoneLinkClient(settings: phone, store: store, logger: logger)
            producers.append(PhoneLinkProducer(client: client, outboxGrew: outboxGrew, logger: logger))
        }
        return producers
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
        return StrapLink(
            target: target,
            adapter: strap.adapter,
            path: BluetoothPath(config.bluetoothStack),
            silenceAfter: strap.silenceAfter,
            logger: logger
        )
    }

    /// The footpod's or treadmill's link the configuration asks for: by address, or the first heard.
    private func speedSensorLink(_ kind: SpeedSensorKind) -> SpeedSensorLink? {
        let sensor = config.speedSensor(kind)
        let target: SpeedSensorLink.Target
        switch sensor.choice {
        case .none:
            return nil
        case .address(let text, let type):
            guard let address = BluetoothAddress(text, kind: BluetoothAddress.Kind(rawValue: type) ?? .random) else {
                return nil
            }
            target = .address(address)
        case .firstSeen:
            target = .firstSeen
        }
        logger.info("\(kind.rawValue)", metadata: ["target": "\(target)", "adapter": "\(sensor.adapter)"])
        return SpeedSensorLink(
            kind: kind,
            target: target,
            adapter: sensor.adapter,
            path: BluetoothPath(config.bluetoothStack),
            silenceAfter: sensor.silenceAfter,
            logger: logger
        )
    }
}

extension Daemon {
    /// The phone link's settings, with this wearable's identity (made on first use) and the
    /// phone's pinned fingerprint; nil when no phone is configured.
    static func phoneSettings(_ config: WearbridgeConfig, logger: Logger) throws -> PhoneLinkSettings? {
        guard let phone = config.phone else { return nil }
        let (identity, created) = try NodeIdentity.loadOrCreate(
            directory: config.storageDirectory,
            commonName: phone.name
        )
        if created {
            logger.notice(
                "created this wearable's TLS identity: pin it on the phone",
                metadata: ["certificate": "\(identity.certificatePath)", "fingerprint": "\(identity.fingerprint)"]
            )
        }
        let pinned: Fingerprint
        switch phone.trust {
        case .fingerprint(let fingerprint):
            pinned = fingerprint
        case .certificate(let path):
            pinned = try NodeIdentity.fingerprint(ofCertificateAt: path)
        }
        logger.info(
            "phone link configured",
            metadata: ["phone": "\(phone.host):\(phone.port)", "phone.fingerprint": "\(pinned)"]
        )
        return PhoneLinkSettings(
            host: phone.host,
            port: phone.port,
            name: phone.name,
            identity: identity,
            phoneFingerprint: pinned,
            staleAfter: phone.staleAfter
        )
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

extension BluetoothPath {
    init(_ stack: BluetoothStack) {
        switch stack {
        case .auto: self = .auto
        case .bluez: self = .bluez
        case .kernel: self = .kernel
        }
    }
}
