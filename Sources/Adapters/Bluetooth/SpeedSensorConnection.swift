import ATT
import GATT
import HexCoding
import Logging
import SpeedSensors

/// One connection to a footpod or treadmill: the GATT client, with that kind's plan, driven over
/// a bearer until the link ends. Every decision is in `GATTClient` and `SpeedSensorKind`; this
/// moves bytes and time between them and the daemon.
public struct SpeedSensorConnection {
    public let kind: SpeedSensorKind
    public let address: String
    /// A subscribed sensor with no sample for this long is dropped and reconnected (s).
    public var silenceAfter: Double
    public var batteryEvery: Double
    public var client: GATTClient
    let clock: @Sendable () -> Double
    let logger: Logger
    public private(set) var samples = 0
    public private(set) var malformed = 0
    public private(set) var ignoredPDUs = 0

    public init(
        kind: SpeedSensorKind,
        address: String,
        silenceAfter: Double = 10,
        batteryEvery: Double = 300,
        requestTimeout: Double = 30,
        clock: @escaping @Sendable () -> Double,
        logger: Logger
    ) {
        self.kind = kind
        self.address = address
        self.silenceAfter = silenceAfter
        self.batteryEvery = batteryEvery
        self.client = GATTClient(plan: kind.plan, requestTimeout: requestTimeout)
        self.clock = clock
        self.logger = logger
    }

    /// Runs until the link fails, the client gives up, the sensor goes silent or `stop` is set;
    /// returns why.
    /// Over the kernel's ATT bearer, with `client` driving it.
    public mutating func run(
        over bearer: ATTBearer,
        stop: StopFlag,
        emit: (SpeedSensorLinkEvent) -> Void
    ) -> String {
        var transport = ATTTransport(bearer: bearer, client: client)
        return run(over: &transport, stop: stop, emit: emit)
    }

    public mutating func run(
        over transport: inout some GATTTransport,
        stop: StopFlag,
        emit: (SpeedSensorLinkEvent) -> Void
    ) -> String {
        var now = clock()
        var lastHeard = now
        var nextBattery = now + batteryEvery
        if let reason = perform(transport.start(now: now), now, emit) { return reason }
        while !stop.isSet {
            let outputs: [GATTClient.Output]
            do {
                outputs = try transport.next(timeout: 1, clock: clock)
            } catch {
                return error.description
            }
            now = clock()
            let before = samples + malformed
            if let reason = perform(outputs, now, emit) { return reason }
            if samples + malformed > before { lastHeard = now }
            if !transport.isSubscribed { lastHeard = now }
            if now - lastHeard >= silenceAfter {
                return "no \(kind.rawValue) sample for \(formatSeconds(silenceAfter)) s while connected"
            }
            if transport.isSubscribed, now >= nextBattery {
                nextBattery = now + batteryEvery
                let read = transport.read(HeartRateProfile.batteryLevel, now: now)
                if let reason = perform(read, now, emit) { return reason }
            }
        }
        return "stopped"
    }

    /// Carries out the client's outputs; a reason to end the connection, or nil.
    private mutating func perform(
        _ outputs: [GATTClient.Output],
        _ now: Double,
        _ emit: (SpeedSensorLinkEvent) -> Void
    ) -> String? {
        func say(_ what: SpeedSensorLinkEvent.What) {
            emit(SpeedSensorLinkEvent(kind: kind, address: address, what: what, receivedAt: now))
        }
        for output in outputs {
            switch output {
            case .send:
                // The transport sends the client's PDUs itself.
                continue
            case .subscribed(let layout):
                logger.info(
                    "\(kind.rawValue) subscribed",
                    metadata: [
                        "sensor": "\(address)", "mtu": "\(layout.mtu)",
                        "subscribed": "\(layout.subscribed.keys.sorted().map { "0x" + String($0, radix: 16) })",
                    ]
                )
                say(.connected)
            case .value(let uuid, let value), .read(let uuid, let value):
                do {
                    switch try kind.reading(uuid, value) {
                    case .sample(let sample):
                        samples += 1
                        say(.sample(sample, payload: value))
                    case .machineStatus(let status): say(.machineStatus(status))
                    case .feature(let bits): say(.feature(bits))
                    case .batteryLevel(let level): say(.batteryLevel(level))
                    case .nothing: break
                    }
                } catch {
                    malformed += 1
                    if malformed <= 20 || malformed.isMultiple(of: 100) {
                        logger.warning(
                            "\(kind.rawValue) value is unreadable",
                            metadata: [
                                "sensor": "\(address)", "characteristic": "\(uuid)", "payload": "\(Hex.encode(value))",
                                "error": "\(error)", "malformed_so_far": "\(malformed)",
                            ]
                        )
                    }
                    say(.malformed(payload: value, reason: "\(error)"))
                }
            case .ignored(let why):
                ignoredPDUs += 1
                if ignoredPDUs <= 20 || ignoredPDUs.isMultiple(of: 100) {
                    logger.warning(
                        "ATT PDU ignored",
                        metadata: ["sensor": "\(address)", "reason": "\(why)", "ignored_so_far": "\(ignoredPDUs)"]
                    )
                }
            case .failed(let reason):
                return reason
            }
        }
        return nil
    }
}
