import ATT
import GATT
import HeartRate
import HexCoding
import Logging

/// One connection to a strap: its GATT traffic, over the kernel's ATT bearer or through
/// bluetoothd, until the link ends.
///
/// Thin on purpose: every decision is in `GATTClient` with the strap's plan (protocol) and
/// `StrapMonitor` (silence, contact, battery); this moves values and time between them and the daemon.
public struct StrapConnection {
    public var batteryEvery: Double
    public var client: HeartRateClient
    let clock: @Sendable () -> Double
    let logger: Logger
    /// PDUs the client could not use, and payloads that were no measurement, on this connection.
    public private(set) var ignoredPDUs = 0
    public private(set) var malformedBeats = 0
    public private(set) var beats = 0

    public init(
        client: HeartRateClient = HeartRateClient(),
        batteryEvery: Double = 300,
        clock: @escaping @Sendable () -> Double,
        logger: Logger
    ) {
        self.client = client
        self.batteryEvery = batteryEvery
        self.clock = clock
        self.logger = logger
    }

    /// Runs until the link fails, the client gives up, the strap goes silent or `stop` is set;
    /// returns why, for the "strap lost" event.
    /// Over the kernel's ATT bearer, with `client` driving it.
    public mutating func run(
        over bearer: ATTBearer,
        monitor: inout StrapMonitor,
        stop: StopFlag,
        emit: (StrapLinkEvent) -> Void
    ) -> String {
        var transport = ATTTransport(bearer: bearer, client: client.gatt)
        return run(over: &transport, monitor: &monitor, stop: stop, emit: emit)
    }

    public mutating func run(
        over transport: inout some GATTTransport,
        monitor: inout StrapMonitor,
        stop: StopFlag,
        emit: (StrapLinkEvent) -> Void
    ) -> String {
        var now = clock()
        var nextBattery = now + batteryEvery
        if let reason = perform(transport.start(now: now), &monitor, now, emit) { return reason }
        while !stop.isSet {
            let outputs: [GATTClient.Output]
            // Wake for the next value, the silence deadline or at the latest in a second (ATT timeouts,
            // the battery, a stop): not on a fast fixed tick, which would cost a strap's CPU for nothing.
            let wait = min(1, max(0.05, (monitor.silenceDeadline ?? .infinity) - now + 0.01))
            do {
                outputs = try transport.next(timeout: wait, clock: clock)
            } catch {
                return error.description
            }
            now = clock()
            if let reason = perform(outputs, &monitor, now, emit) { return reason }
            if monitor.isSilent(now: now) {
                return "no beat for \(formatSeconds(monitor.silenceAfter)) s while connected"
            }
            if transport.isSubscribed, now >= nextBattery {
                nextBattery = now + batteryEvery
                let read = transport.read(HeartRateProfile.batteryLevel, now: now)
                if let reason = perform(read, &monitor, now, emit) { return reason }
            }
        }
        return "stopped"
    }

    /// Carries out the client's outputs; a reason to end the connection, or nil.
    private mutating func perform(
        _ outputs: [GATTClient.Output],
        _ monitor: inout StrapMonitor,
        _ now: Double,
        _ emit: (StrapLinkEvent) -> Void
    ) -> String? {
        for output in outputs.map(HeartRateClient.name) {
            switch output {
            case .send:
                // The transport sends the client's PDUs itself.
                continue
            case .subscribed(let profile):
                monitor.linked(now: now)
                logger.info(
                    "strap subscribed",
                    metadata: [
                        "strap": "\(monitor.address)", "mtu": "\(profile.mtu)",
                        "measurement_handle": "\(profile.measurementHandle)", "cccd": "\(profile.measurementCCCD)",
                    ]
                )
                emit(.subscribed(address: monitor.address, receivedAt: now))
            case .measurement(let payload):
                do {
                    let measurement = try HeartRateMeasurement(payload: payload)
                    beats += 1
                    emit(.beat(measurement, payload: payload, receivedAt: now))
                    for event in monitor.beat(measurement, now: now) { emit(.strap(event, receivedAt: now)) }
                } catch {
                    malformedBeats += 1
                    // Every one is an event in the session log; the journal gets the first few and then a sample.
                    if malformedBeats <= 20 || malformedBeats.isMultiple(of: 100) {
                        logger.warning(
                            "heart-rate notification is no measurement",
                            metadata: [
                                "strap": "\(monitor.address)", "payload": "\(Hex.encode(payload))", "error": "\(error)",
                                "malformed_so_far": "\(malformedBeats)",
                            ]
                        )
                    }
                    emit(.malformedBeat(payload: payload, reason: "\(error)", receivedAt: now))
                }
            case .batteryLevel(let level):
                for event in monitor.batteryLevel(level) { emit(.strap(event, receivedAt: now)) }
            case .bodySensorLocation(let raw):
                let name = BodySensorLocation(rawValue: raw)?.name ?? "reserved_\(raw)"
                emit(.bodySensorLocation(name, receivedAt: now))
            case .ignored(let why):
                ignoredPDUs += 1
                if ignoredPDUs <= 20 || ignoredPDUs.isMultiple(of: 100) {
                    logger.warning(
                        "ATT PDU ignored",
                        metadata: [
                            "strap": "\(monitor.address)", "reason": "\(why)", "ignored_so_far": "\(ignoredPDUs)",
                        ]
                    )
                }
            case .failed(let reason):
                return reason
            }
        }
        return nil
    }
}
