import ATT
import GATT
import HeartRate
import Logging
import ProcessClock
import Reconnection

#if canImport(Glibc)
import Glibc
#endif

/// Keeps a heart-rate strap connected for as long as the daemon runs: find, connect, subscribe,
/// and on any loss reconnect with capped backoff, never giving up.
///
/// Bluetooth sockets block, so each attempt runs on a thread of its own, bridged to structured
/// concurrency (cancelling the task stops it within about a second); the loop around the attempts
/// is the `ReconnectLoop` the gpsd link uses too.
public struct StrapLink: Sendable {
    public enum Target: Sendable, Equatable {
        case address(BluetoothAddress)
        /// The first heart-rate strap heard while scanning; announced with `.chosen`.
        case firstSeen
    }

    public var target: Target
    public var adapter: String
    public var path: BluetoothPath
    public var silenceAfter: Double
    public var connectTimeout: Double
    public var requestTimeout: Double
    public var batteryEvery: Double
    public var backoff: ReconnectBackoff
    let logger: Logger

    public init(
        target: Target,
        adapter: String = "hci0",
        path: BluetoothPath = .auto,
        silenceAfter: Double = 5,
        connectTimeout: Double = 30,
        requestTimeout: Double = 30,
        batteryEvery: Double = 300,
        backoff: ReconnectBackoff = ReconnectBackoff(initial: 0.5, cap: 8),
        logger: Logger
    ) {
        self.target = target
        self.adapter = adapter
        self.path = path
        self.silenceAfter = silenceAfter
        self.connectTimeout = connectTimeout
        self.requestTimeout = requestTimeout
        self.batteryEvery = batteryEvery
        self.backoff = backoff
        self.logger = logger
    }

    /// Runs until the task is cancelled, reporting to `emit` from the link's own thread.
    public func run(emit: @escaping @Sendable (StrapLinkEvent) -> Void) async {
        var address: BluetoothAddress?
        if case .address(let configured) = target { address = configured }
        var monitor: StrapMonitor?
        let loop = ReconnectLoop(
            messages: .init(failed: "strap connection failed", ended: "strap link ended"),
            peer: ["adapter": "\(adapter)"],
            backoff: backoff,
            logger: logger
        )
        await loop.run {
            let (known, carried) = (address, monitor)
            let result = await runBlocking { stop in attempt(address: known, monitor: carried, stop: stop, emit: emit)
            }
            address = result.address
            // The monitor outlives connections: "lost" and "regained" span them.
            monitor = result.monitor
            return result.outcome
        }
    }

    /// What one attempt leaves for the next.
    struct Attempt: Sendable {
        var address: BluetoothAddress?
        var monitor: StrapMonitor?
        var outcome: ReconnectLoop.Outcome
    }

    /// One attempt, on a blocking thread: find the strap (first-seen), connect, stream until the link ends.
    func attempt(
        address known: BluetoothAddress?,
        monitor carried: StrapMonitor?,
        stop: StopFlag,
        emit: (StrapLinkEvent) -> Void
    ) -> Attempt {
        let radio = SensorRadio.choose(
            path,
            adapter: adapter,
            connectTimeout: connectTimeout,
            requestTimeout: requestTimeout,
            logger: logger
        )
        let peer: BluetoothAddress
        if let known {
            peer = known
        } else {
            switch findFirstStrap(radio: radio, stop: stop) {
            case .success(let found):
                peer = found
                emit(.chosen(found))
            case .failure(let problem):
                return Attempt(address: nil, monitor: carried, outcome: .init(delivered: false, reason: problem.reason))
            }
        }
        var strap = carried ?? StrapMonitor(address: peer.text, silenceAfter: silenceAfter)
        let attemptStarted = MonotonicClock.now()
        var transport: any GATTTransport
        do {
            transport = try radio.connect(to: peer, plan: HeartRateClient.plan, stop: stop)
        } catch {
            if case .held(let why) = error { emit(.unavailable(why, receivedAt: MonotonicClock.now())) }
            return Attempt(
                address: peer,
                monitor: strap,
                outcome: .init(
                    delivered: false,
                    reason: "\(error)",
                    metadata: ["strap": "\(peer)", "through": "\(radio.path.rawValue)"]
                )
            )
        }
        logger.info(
            "strap connected",
            metadata: [
                "strap": "\(peer)", "through": "\(radio.path.rawValue)",
                "connect_s": "\(MonotonicClock.now() - attemptStarted)",
            ]
        )
        var connection = StrapConnection(
            client: HeartRateClient(requestTimeout: requestTimeout),
            batteryEvery: batteryEvery,
            clock: { MonotonicClock.now() },
            logger: logger
        )
        let reason = connection.run(over: &transport, monitor: &strap, stop: stop, emit: emit)
        transport.close()
        // Stopping is ours, not the strap's: no "lost" for it.
        if !stop.isSet {
            let now = MonotonicClock.now()
            for event in strap.linkDown(reason: reason, now: now) { emit(.strap(event, receivedAt: now)) }
        }
        let counts: Logger.Metadata = [
            "strap": "\(peer)", "beats": "\(connection.beats)", "malformed": "\(connection.malformedBeats)",
            "ignored_pdus": "\(connection.ignoredPDUs)",
        ]
        // A connection that delivered beats was good: the backoff starts again from its shortest step.
        return Attempt(
            address: peer,
            monitor: strap,
            outcome: .init(delivered: connection.beats > 0, reason: reason, metadata: counts)
        )
    }

    /// Why no strap was found.
    struct ScanProblem: Error {
        var reason: String
    }

    /// Scans in 10 s rounds until a heart-rate strap answers, or the scan fails or stops.
    private func findFirstStrap(radio: SensorRadio, stop: StopFlag) -> Result<BluetoothAddress, ScanProblem> {
        while !stop.isSet {
            do {
                let heard = try radio.scan(seconds: 10, stop: stop, until: \.isHeartRateSensor)
                if let strap = heard.first(where: \.isHeartRateSensor) {
                    logger.info(
                        "heart-rate strap found",
                        metadata: [
                            "strap": "\(strap.address)", "name": "\(strap.name ?? "")",
                            "through": "\(radio.path.rawValue)",
                            "rssi": "\(strap.rssi.map(String.init) ?? "")",
                        ]
                    )
                    return .success(strap.address)
                }
            } catch {
                return .failure(ScanProblem(reason: "scan for a heart-rate strap failed: \(error)"))
            }
        }
        return .failure(ScanProblem(reason: "stopped"))
    }
}
