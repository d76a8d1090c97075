import ATT
import GATT
import Logging
import ProcessClock
import Reconnection

/// Keeps a footpod or a treadmill connected for as long as the daemon runs: find, connect,
/// subscribe, and on any loss reconnect with capped backoff, never giving up (as the strap does,
/// on a thread of its own, beside it).
public struct SpeedSensorLink: Sendable {
    public enum Target: Sendable, Equatable {
        case address(BluetoothAddress)
        /// The first sensor of this kind heard while scanning.
        case firstSeen
    }

    public var kind: SpeedSensorKind
    public var target: Target
    public var adapter: String
    public var path: BluetoothPath
    public var silenceAfter: Double
    public var connectTimeout: Double
    public var requestTimeout: Double
    public var backoff: ReconnectBackoff
    let logger: Logger

    public init(
        kind: SpeedSensorKind,
        target: Target,
        adapter: String = "hci0",
        path: BluetoothPath = .auto,
        silenceAfter: Double = 10,
        connectTimeout: Double = 30,
        requestTimeout: Double = 30,
        backoff: ReconnectBackoff = ReconnectBackoff(initial: 0.5, cap: 8),
        logger: Logger
    ) {
        self.kind = kind
        self.target = target
        self.adapter = adapter
        self.path = path
        self.silenceAfter = silenceAfter
        self.connectTimeout = connectTimeout
        self.requestTimeout = requestTimeout
        self.backoff = backoff
        self.logger = logger
    }

    /// Runs until the task is cancelled, reporting to `emit` from the link's own thread.
    public func run(emit: @escaping @Sendable (SpeedSensorLinkEvent) -> Void) async {
        var address: BluetoothAddress?
        if case .address(let configured) = target { address = configured }
        let loop = ReconnectLoop(
            messages: .init(failed: "\(kind.rawValue) connection failed", ended: "\(kind.rawValue) link ended"),
            peer: ["adapter": "\(adapter)", "kind": "\(kind.rawValue)"],
            backoff: backoff,
            logger: logger
        )
        await loop.run {
            let known = address
            let result = await runBlocking { stop in attempt(address: known, stop: stop, emit: emit) }
            address = result.address
            return result.outcome
        }
    }

    /// One attempt, on a blocking thread: find the sensor (first-seen), connect, stream until the link ends.
    func attempt(
        address known: BluetoothAddress?,
        stop: StopFlag,
        emit: (SpeedSensorLinkEvent) -> Void
    ) -> (address: BluetoothAddress?, outcome: ReconnectLoop.Outcome) {
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
            do {
                guard let found = try findFirst(radio: radio, stop: stop) else {
                    return (nil, .init(delivered: false, reason: "stopped"))
                }
                peer = found
            } catch {
                return (nil, .init(delivered: false, reason: "scan for a \(kind.rawValue) failed: \(error)"))
            }
        }
        var transport: any GATTTransport
        do {
            transport = try radio.connect(to: peer, plan: kind.plan, stop: stop)
        } catch {
            if case .held(let why) = error {
                emit(.init(kind: kind, address: peer.text, what: .unavailable(why), receivedAt: MonotonicClock.now()))
            }
            return (
                peer,
                .init(
                    delivered: false,
                    reason: "\(error)",
                    metadata: ["sensor": "\(peer)", "through": "\(radio.path.rawValue)"]
                )
            )
        }
        logger.info("\(kind.rawValue) connected", metadata: ["sensor": "\(peer)", "through": "\(radio.path.rawValue)"])
        var connection = SpeedSensorConnection(
            kind: kind,
            address: peer.text,
            silenceAfter: silenceAfter,
            requestTimeout: requestTimeout,
            clock: { MonotonicClock.now() },
            logger: logger
        )
        let reason = connection.run(over: &transport, stop: stop, emit: emit)
        transport.close()
        if !stop.isSet {
            emit(.init(kind: kind, address: peer.text, what: .lost(reason: reason), receivedAt: MonotonicClock.now()))
        }
        let counts: Logger.Metadata = [
            "sensor": "\(peer)", "samples": "\(connection.samples)", "malformed": "\(connection.malformed)",
            "ignored_pdus": "\(connection.ignoredPDUs)",
        ]
        // A connection that delivered samples was good: the backoff starts again from its shortest step.
        return (peer, .init(delivered: connection.samples > 0, reason: reason, metadata: counts))
    }

    /// Scans in 10 s rounds until a sensor of this kind answers; nil when stopped.
    private func findFirst(radio: SensorRadio, stop: StopFlag) throws -> BluetoothAddress? {
        while !stop.isSet {
            let heard = try radio.scan(seconds: 10, stop: stop, until: { $0.speedSensorKind == kind })
            if let found = heard.first(where: { $0.speedSensorKind == kind }) {
                logger.info(
                    "\(kind.rawValue) found",
                    metadata: ["sensor": "\(found.address)", "name": "\(found.name ?? "")"]
                )
                return found.address
            }
        }
        return nil
    }
}
