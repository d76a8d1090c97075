import Engine
import Logging
import ProcessClock
import SessionCore

extension Instant {
    /// The process's clocks now: the engine's only source of time.
    static func now() -> Instant { Instant(monotonic: MonotonicClock.now(), system: MonotonicClock.system()) }
}

/// The engine's shell: one input at a time into the pure `SessionEngine`, each action carried out
/// (store, reply, sinks, systemd, the remembered strap). Ends once the engine has finished.
struct EngineLoop {
    var engine: SessionEngine
    let store: AsyncStream<StoreRequest>.Continuation
    let router: ReplyRouter
    let sinks: SinkFanOut
    let notifier: SystemdNotifier
    let strapMemory: RememberedStrap
    /// Where `.wake` instants go (the `AlarmProducer` ticks the engine then).
    let alarms: AsyncStream<Double>.Continuation
    let logger: Logger

    mutating func run(_ inputs: AsyncStream<EngineInput>) async {
        for await input in inputs {
            let actions = engine.handle(input, now: .now())
            for action in actions { perform(action) }
            if engine.isFinished { break }
        }
        // Nobody will answer now: whoever still waits hears so, and the sinks drain.
        router.close()
        sinks.finish()
    }

    private func perform(_ action: EngineAction) {
        switch action {
        case .persist(let request):
            store.yield(request)
        case .reply(let token, let reply):
            router.resolve(token, reply)
        case .announce(let announcement):
            sinks.publish(.announcement(announcement))
        case .reading(let reading):
            sinks.publish(.reading(reading))
        case .watchdog:
            notifier.watchdog()
        case .rememberStrap(let address):
            do {
                try strapMemory.save(address)
                logger.notice("remembered the strap", metadata: ["strap": "\(address)", "file": "\(strapMemory.path)"])
            } catch {
                logger.warning("cannot remember the strap", metadata: ["strap": "\(address)", "error": "\(error)"])
            }
        case .storageHealth(let failure?):
            logger.error(
                "cannot write the data log: lifecycle rows and commands held, raw fixes given up until it recovers",
                metadata: ["error": "\(failure)"]
            )
            notifier.status("storage failing: \(failure)")
        case .storageHealth(nil):
            logger.notice("the data log is written again")
            notifier.status(engine.controller.session.map { "recording session \($0.id)" } ?? "idle")
        case .wake(let instant):
            alarms.yield(instant)
        case .finished(let unwritten):
            if unwritten > 0 {
                logger.error("stopped with rows not on disk", metadata: ["rows": "\(unwritten)"])
            }
        }
    }
}
