import Dispatch
import GATT
import HeartRate
import LinkTiming
import Logging

#if canImport(Glibc)
import Glibc
#endif

/// Keeps a heart-rate strap connected for as long as the daemon runs: find, connect, subscribe,
/// and on any loss reconnect with capped backoff, never giving up.
///
/// Bluetooth sockets block, so the loop runs on its own thread; `run` bridges it to structured
/// concurrency (cancelling the task stops the loop within about a second).
public struct StrapLink: Sendable {
    public enum Target: Sendable, Equatable {
        case address(BluetoothAddress)
        /// The first heart-rate strap heard while scanning; announced with `.chosen`.
        case firstSeen
    }

    public var target: Target
    public var adapter: String
    public var silenceAfter: Double
    public var connectTimeout: Double
    public var requestTimeout: Double
    public var batteryEvery: Double
    public var backoff: ReconnectBackoff
    let logger: Logger

    public init(
        target: Target,
        adapter: String = "hci0",
        silenceAfter: Double = 5,
        connectTimeout: Double = 30,
        requestTimeout: Double = 30,
        batteryEvery: Double = 300,
        backoff: ReconnectBackoff = ReconnectBackoff(initial: 0.5, cap: 8),
        logger: Logger
    ) {
        self.target = target
        self.adapter = adapter
        self.silenceAfter = silenceAfter
        self.connectTimeout = connectTimeout
        self.requestTimeout = requestTimeout
        self.batteryEvery = batteryEvery
        self.backoff = backoff
        self.logger = logger
    }

    public func run(emit: @escaping @Sendable (StrapLinkEvent) -> Void) async {
        let stop = StopFlag()
        await withTaskCancellationHandler {
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                DispatchQueue(label: "wearbridge.strap-link").async {
                    loop(stop: stop, emit: emit)
                    done.resume()
                }
            }
        } onCancel: {
            stop.set()
        }
    }

    func loop(stop: StopFlag, emit: (StrapLinkEvent) -> Void) {
        var backoff = self.backoff
        var monitor: StrapMonitor?
        var address: BluetoothAddress?
        if case .address(let configured) = target { address = configured }
        while !stop.isSet {
            guard let peer = address ?? findFirstStrap(stop: stop) else {
                pause(backoff.nextDelay(), stop: stop)
                continue
            }
            if address == nil {
                address = peer
                emit(.chosen(peer))
            }
            var strap = monitor ?? StrapMonitor(address: peer.text, silenceAfter: silenceAfter)
            let bearer: ATTBearer
            let attemptStarted = MonotonicClock.now()
            do {
                bearer = try L2CAPConnector(adapter: adapter, connectTimeout: connectTimeout)
                    .connect(to: peer) { stop.isSet }
            } catch {
                if error == .cancelled { break }
                let delay = backoff.nextDelay()
                if backoff.shouldReport {
                    logger.warning(
                        "strap connection failed",
                        metadata: [
                            "strap": "\(peer)", "error": "\(error)", "retry_in_s": "\(delay)",
                            "attempt": "\(backoff.failures)",
                        ]
                    )
                }
                pause(delay, stop: stop)
                continue
            }
            logger.info(
                "strap connected",
                metadata: [
                    "strap": "\(peer)", "connect_s": "\(MonotonicClock.now() - attemptStarted)",
                ]
            )
            var connection = StrapConnection(
                client: HeartRateClient(requestTimeout: requestTimeout),
                batteryEvery: batteryEvery,
                clock: { MonotonicClock.now() },
                logger: logger
            )
            let reason = connection.run(over: bearer, monitor: &strap, stop: stop, emit: emit)
            bearer.close()
            // Stopping is ours, not the strap's: no "lost" for it.
            if stop.isSet { break }
            let now = MonotonicClock.now()
            for event in strap.linkDown(reason: reason, now: now) { emit(.strap(event, receivedAt: now)) }
            monitor = strap
            logger.warning(
                "strap link ended",
                metadata: [
                    "strap": "\(peer)", "reason": "\(reason)", "beats": "\(connection.beats)",
                    "malformed": "\(connection.malformedBeats)", "ignored_pdus": "\(connection.ignoredPDUs)",
                ]
            )
            // A connection that delivered beats was good: start the backoff again from its shortest step.
            if connection.beats > 0 { backoff.reset() }
            pause(backoff.nextDelay(), stop: stop)
        }
    }

    /// Scans in 10 s rounds until a heart-rate strap answers; nil when scanning fails or stops.
    private func findFirstStrap(stop: StopFlag) -> BluetoothAddress? {
        while !stop.isSet {
            do {
                let heard = try HCIScanner(adapter: adapter).scan(
                    seconds: 10,
                    stop: { $0.isHeartRateSensor || stop.isSet }
                )
                if let strap = heard.first(where: \.isHeartRateSensor) {
                    logger.info(
                        "heart-rate strap found",
                        metadata: [
                            "strap": "\(strap.address)", "name": "\(strap.name ?? "")",
                            "rssi": "\(strap.rssi.map(String.init) ?? "")",
                        ]
                    )
                    return strap.address
                }
            } catch {
                logger.warning(
                    "scan for a heart-rate strap failed",
                    metadata: ["adapter": "\(adapter)", "error": "\(error)"]
                )
                return nil
            }
        }
        return nil
    }

    private func pause(_ seconds: Double, stop: StopFlag) {
        let until = MonotonicClock.now() + seconds
        while !stop.isSet, MonotonicClock.now() < until {
            var request = timespec(tv_sec: 0, tv_nsec: 50_000_000)
            nanosleep(&request, nil)
        }
    }
}
