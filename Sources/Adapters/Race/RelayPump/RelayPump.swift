import Foundation
import Logging
import PhoneRaceCore
import PhoneServer
import ProcessClock
import RaceStore
import Reconnection
import RelayClient
import RelayContract
import ServiceLifecycle
import SessionCore
import TrackCore

/// The phone's link to the relay, run beside the phone server: keeps the races this runner is in,
/// pushes what the wearable said during a race (queued durably by the inbox) and pulls what the
/// partner said and what the relay decided into the inbox, exactly once each way, on a half-second
/// tick (the relay notifies no one); every reconnect first fetches the partner's newest
/// snapshot, then everything past the marks. With the relay down the phone and wearable carry on
/// and the queue waits.
public struct RelayPump: Service {
    public let endpoint: RelayEndpoint
    /// The wearable whose sessions race (its name in `[[wearable]]`).
    public let wearable: String
    public let inbox: Inbox
    /// The race's tables in the inbox's file.
    var store: RaceStore { RaceStore(inbox) }
    public let counters: RelayCounters
    let logger: Logger
    /// The phone's wall clock, read once per tick: the relay's instants are Unix seconds.
    let clock: WallClock

    public init(
        endpoint: RelayEndpoint,
        wearable: String,
        inbox: Inbox,
        counters: RelayCounters,
        logger: Logger,
        clock: WallClock
    ) {
        self.clock = clock
        self.endpoint = endpoint
        self.wearable = wearable
        self.inbox = inbox
        self.counters = counters
        self.logger = logger
    }

    public func run() async throws {
        let loop = ReconnectLoop(
            messages: .init(
                failed: "cannot reach the relay, retrying",
                ended: "the relay connection ended, reconnecting"
            ),
            peer: ["relay": "\(endpoint.place)"],
            backoff: ReconnectBackoff(initial: 0.5, cap: 10),
            logger: logger
        )
        await cancelWhenGracefulShutdown {
            await loop.run {
                let connected = ConnectedFlag()
                do {
                    try await RelayConnection.with(endpoint, logger: logger) { relay in
                        connected.set()
                        logger.info("connected to the relay", metadata: ["relay": "\(endpoint.place)"])
                        try await follow(RelayFeed(relay))
                    }
                    return .init(delivered: connected.isSet, reason: "closed")
                } catch {
                    return .init(delivered: connected.isSet, reason: "\(error)")
                }
            }
        }
    }

    /// One connection's life, as `RelayPumpCore` schedules it: one reading of the clock per input, each
    /// action carried out, what it read handed back, then a sleep until the core's next wake.
    private func follow(_ feed: RelayFeed) async throws {
        var core = RelayPumpCore()
        var held: [RaceStore.RelayRace] = []
        while !Task.isCancelled, !feed.relay.isClosed {
            var inputs: [RelayPumpCore.Input] = [.tick]
            var wake: Double?
            while !inputs.isEmpty {
                let input = inputs.removeFirst()
                for action in core.handle(input, now: clock.now()) {
                    switch action {
                    case .list:
                        try await feed.sweep()
                        inputs.append(.listed(try await feed.races()))
                    case .hold(let race):
                        try await hold(race)
                        try await followCourse(of: race, feed, now: clock.now())
                    case .readHeld:
                        held = try store.relayRaces()
                        inputs.append(.held(try held.map(phoneRace)))
                    case .order(let order):
                        try await carryOut(order, held: held, feed, now: clock.now())
                    case .push(let run):
                        // Read again for each: a pull or push before it moved the race's marks.
                        guard let race = try store.relayRace(run: run) else { continue }
                        try await push(race, feed, now: clock.now())
                    case .pull(let run):
                        // Read again for each: a pull or push before it moved the race's marks.
                        guard let race = try store.relayRace(run: run) else { continue }
                        try await pull(race, feed, now: clock.now())
                    case .shareRoute(let run):
                        guard let race = try store.relayRace(run: run) else { continue }
                        try await shareRoute(race, feed, now: clock.now())
                    case .fetchRoute(let run):
                        guard let race = try store.relayRace(run: run) else { continue }
                        try await fetchRoute(race, feed, now: clock.now())
                    case .wake(let at):
                        wake = at
                    }
                }
            }
            // The wall clock may step (a board without a real-time clock): never more than a round's pause.
            let delay = min(max((wake ?? 0) - clock.now(), 0), RelayPumpCore.idleEvery)
            if delay > 0 { try await Task.sleep(for: .milliseconds(Int(delay * 1000))) }
        }
        if feed.relay.isClosed {
            throw RelayError.unreachable(place: endpoint.place, reason: "the connection was closed")
        }
    }

    /// Holds a run with an agreed start in the phone's race store (or updates it).
    private func hold(_ race: RelayRun) async throws {
        guard let startAt = race.startAt else { return }
        try await store.bindRace(
            run: race.id.uuidString.lowercased(),
            wearable: wearable,
            partner: race.partner,
            startAt: startAt.timeIntervalSince1970,
            state: race.state,
            activity: race.activity,
            distance: race.distanceMetres
        )
    }

    /// A race held as `RaceOrders` judges it. A race whose session started needs no orders: its orders
    /// are not read (the table keeps every race this phone ran).
    private func phoneRace(_ race: RaceStore.RelayRace) throws -> PhoneRace {
        var ownRoute = PhoneRace.OwnRoute.notReady
        var partnerRouteHeld = false
        if !race.state.isOpen, let session = race.session {
            let settled = try store.routeRunners(run: race.run)
            partnerRouteHeld = settled.contains(race.partner)
            if settled.contains(endpoint.user) {
                ownRoute = .settled
            } else if try inbox.backfill.state(session: session)?.state == .complete {
                ownRoute = .ready
            }
        }
        return PhoneRace(
            run: race.run,
            state: race.state,
            startAt: race.startAt,
            hasSession: race.session != nil,
            order: race.session == nil ? try store.handedOrder(run: race.run) : nil,
            ownRoute: ownRoute,
            partnerRouteHeld: partnerRouteHeld
        )
    }

    /// Carries out one of `RaceOrders`' decisions: hands a race about to start to the wearable as an
    /// order with an expiry, hands it again, disarms one cancelled before its start, and cancels for
    /// both a race the wearable cannot take (the partner's wearable hears it through its own phone).
    private func carryOut(
        _ action: RaceOrders.Action,
        held: [RaceStore.RelayRace],
        _ feed: RelayFeed,
        now: Double
    ) async throws {
        switch action {
        case .order(let run):
            guard let race = held.first(where: { $0.run == run }) else { return }
            try await store.queueRaceOrder(
                run: run,
                wearable: wearable,
                partner: race.partner,
                startAt: race.startAt,
                activity: race.activity.flatMap(Self.activity),
                distance: race.distance,
                course: race.course,
                now: now
            )
            logger.notice(
                "race: the countdown goes to the wearable",
                metadata: ["run": "\(run)", "start_in_s": "\(Int(race.startAt - now))"]
            )
        case .handAgain(let run):
            try await store.handRaceOrderAgain(run: run, wearable: wearable, now: now)
        case .cancelAtRelay(let run, let reason):
            guard let id = UUID(uuidString: run) else { return }
            logger.warning(
                "race: the wearable cannot take it; cancelling it for both",
                metadata: ["run": "\(run)", "reason": "\(reason)"]
            )
            do {
                try await RaceDesk(feed.relay).cancel(id, reason: "wearable of \(endpoint.user): \(reason)")
            } catch RelayError.refused(let code, let message) where code == .notCancellable {
                // Cancelled already (this pump's list of races lags by up to 5 s), or by the partner.
                logger.notice(
                    "race: already over at the relay",
                    metadata: ["run": "\(run)", "reason": "\(message)"]
                )
            }
        case .disarm(let run):
            try await store.queueRaceCancel(run: run, wearable: wearable, now: now)
        }
    }

    /// The relay's activity as the wearable's.
    static func activity(_ relay: String) -> Activity? {
        switch relay {
        case "run": .running
        case "walk": .walking
        case "ride": .cycling
        default: nil
        }
    }

    /// Sends what the inbox queued for `race`, in order; a row leaves the queue only once the relay
    /// has it. A refusal for good is logged, counted and kept in the inbox's refusal table; the rate
    /// limit only defers.
    private func push(_ race: RaceStore.RelayRace, _ feed: RelayFeed, now: Double) async throws {
        guard let id = UUID(uuidString: race.run) else { return }
        for row in try store.relayOutbox(run: race.run) {
            do {
                switch row.kind {
                case .finished:
                    let state = try await feed.finish(
                        id,
                        distance: row.distance ?? 0,
                        elapsed: row.elapsed ?? 0,
                        moving: row.moving,
                        course: row.course
                    )
                    logger.notice(
                        "submitted this runner's final figures to the relay",
                        metadata: [
                            "run": "\(race.run)", "distance_m": "\(row.distance ?? 0)",
                            "course_m": "\(row.course.map { "\($0)" } ?? "none")", "race": "\(state)",
                        ]
                    )
                default:
                    let message = RelayMessage(
                        runID: id,
                        runner: endpoint.user,
                        seq: row.seq,
                        messageClass: row.messageClass,
                        kind: row.kind.rawValue,
                        distanceMetres: row.distance,
                        elapsedSeconds: row.elapsed,
                        movingSeconds: row.moving,
                        paused: row.paused,
                        body: row.body,
                        courseMetres: row.course
                    )
                    if try await feed.post(message) { counters.posted.add(1) } else { counters.resent.add(1) }
                    if row.kind == .started, !race.startReported,
                        let offset = (RaceStore.details(row.body)["start_offset_ms"] as? NSNumber)?.intValue
                    {
                        try await feed.reportStart(id, offsetMilliseconds: offset)
                        try await store.relayStartReported(run: race.run)
                    }
                }
                try await store.relayDone(run: race.run, seq: row.seq, at: now)
            } catch RelayError.refused(let code, let message) where RelayRound.refusal(code) == .later {
                logger.debug("the relay's rate limit defers a message", metadata: ["message": "\(message)"])
                return
            } catch RelayError.refused(let code, let message) {
                counters.refused.add(1)
                logger.warning(
                    "the relay refused a message; it is dropped",
                    metadata: [
                        "run": "\(race.run)", "seq": "\(row.seq)", "kind": "\(row.kind)", "code": "\(code)",
                        "reason": "\(message)",
                    ]
                )
                try await store.relayDone(
                    run: race.run,
                    seq: row.seq,
                    refusal: (code, message),
                    at: now
                )
            }
        }
    }

    /// Reads the partner's newest snapshot, their messages and the relay's events past the marks.
    private func pull(_ race: RaceStore.RelayRace, _ feed: RelayFeed, now: Double) async throws {
        guard let id = UUID(uuidString: race.run) else { return }
        var items: [RaceStore.PartnerItem] = []
        if let snapshot = try await feed.latestSnapshot(id, of: race.partner) { items.append(Self.item(snapshot)) }
        items += try await feed.messages(id, of: race.partner, after: race.messageMark).map(Self.item)
        let events = try await feed.events(id, after: race.eventMark)
        for event in events where event.runner == race.partner || event.kind == .result {
            logger.notice(
                "race: \(event.kind.rawValue)",
                metadata: ["run": "\(race.run)", "runner": "\(event.runner ?? "")", "detail": "\(event.body)"]
            )
        }
        items += events.map {
            RaceStore.PartnerItem(
                source: .event,
                key: $0.id,
                runner: $0.runner,
                messageClass: .critical,
                kind: $0.kind.rawValue,
                distance: nil,
                elapsed: nil,
                paused: false,
                body: $0.body,
                at: $0.at.timeIntervalSince1970
            )
        }
        guard !items.isEmpty else { return }
        try await store.commitPartner(run: race.run, items: items, receivedAt: now)
        counters.pulled.add(items.count)
    }

    static func item(_ message: RelayMessage) -> RaceStore.PartnerItem {
        RaceStore.PartnerItem(
            source: .message,
            key: message.seq,
            runner: message.runner,
            messageClass: message.messageClass,
            kind: message.kind,
            distance: message.distanceMetres,
            elapsed: message.elapsedSeconds,
            paused: message.paused,
            body: message.body,
            at: message.receivedAt?.timeIntervalSince1970 ?? 0,
            course: message.courseMetres
        )
    }
}
