import GATT
import HeartRate
import SessionCore
import TrackCore

extension SessionEngine {
    mutating func gps(_ input: GPSInput, _ now: Instant) {
        switch input {
        case .connected:
            gpsd.connected(at: now.monotonic)
            controller.gpsd(connected: true, receivedAt: now.monotonic, into: &output)
        case .disconnected(let reason):
            gpsd.disconnected(reason: reason)
            if let fix = merger.flushAll() { ingest(fix, now) }
            controller.gpsd(connected: false, receivedAt: now.monotonic, into: &output)
        case .fix(let fix, let receivedAt):
            gpsd.report(at: receivedAt)
            for fix in merger.add(fix, now: receivedAt) { ingest(fix, now) }
        case .device(let path, let activated, let receivedAt):
            gpsd.device(path: path, activated: activated, at: receivedAt)
            controller.device(path: path, activated: activated, receivedAt: receivedAt, into: &output)
        case .receivers(let paths):
            gpsd.listed(paths, at: now.monotonic)
        case .sky(let seen, let used):
            gpsd.sky(seen: seen, used: used)
        case .gpsdError(let message):
            gpsd.refused(message)
        }
    }

    /// A fix for the session, unless storage cannot log it: then it is given up whole (neither
    /// logged nor taken in), so that the session stays exactly what its log rebuilds, and the
    /// time without fixes is bridged like a GPS outage once storage is back.
    mutating func ingest(_ fix: Fix, _ now: Instant) {
        lastFix = fix
        if let receivedAt = fix.receivedAt {
            if fix.mode >= 2, fix.position != nil { lastPositionAt = receivedAt }
            if fix.isUsable {
                let instant = GPSTime(seconds: receivedAt)
                _ = standbyWatch.regained(at: instant, lastUsable: lastUsableAt.map(GPSTime.init))
                lastUsableAt = receivedAt
            }
        }
        guard !queue.isFailing, phase != .closing, phase != .finished else {
            // Counted as given up only where a session would have logged it (as for beats).
            if controller.session != nil { queue.skipped(.fix) }
            return
        }
        controller.ingest(fix, into: &output)
        followCourse(receivedAt: fix.receivedAt)
        raceFix(fix, now)
    }

    mutating func strap(_ event: StrapLinkEvent, _ now: Instant) {
        let previousLocation = strap?.location
        strap?.update(event)
        switch event {
        case .beat(let measurement, let payload, let receivedAt):
            guard !queue.isFailing else {
                if controller.session != nil { queue.skipped(.beat) }
                return
            }
            let sample = HeartRateSample(measurement, payload: payload, receivedAt: receivedAt)
            controller.heartRate(sample, into: &output)
        case .malformedBeat(let payload, let reason, let receivedAt):
            controller.event(.malformedBeat(payload: payload, reason: reason), receivedAt: receivedAt, into: &output)
        case .strap(let strapEvent, let receivedAt):
            controller.event(.strap(strapEvent), receivedAt: receivedAt, into: &output)
        case .bodySensorLocation(let name, let receivedAt):
            // Where the strap is worn is logged when it changes, not at every reconnection.
            guard previousLocation != name else { return }
            controller.event(.strapLocation(name), receivedAt: receivedAt, into: &output)
        case .subscribed, .unavailable:
            break
        case .chosen(let address):
            actions.append(.rememberStrap(address))
        }
    }

    mutating func speedSensor(_ event: SpeedSensorLinkEvent, _ now: Instant) {
        if let index = speedSensors.firstIndex(where: { $0.kind == event.kind }) {
            speedSensors[index].update(event)
        }
        let source = event.kind.source
        let at = event.receivedAt
        switch event.what {
        case .sample(let reading, let payload):
            guard !queue.isFailing else {
                if controller.session != nil { queue.skipped(.beat) }
                return
            }
            let sample = SpeedSensorSample(source: source, reading: reading, receivedAt: at, payload: payload)
            controller.speed(sample, into: &output)
            raceStride(receivedAt: at, now)
        case .malformed(let payload, let reason):
            controller.event(
                .speedSensor(.malformed(source, payload: payload, reason: reason)),
                receivedAt: at,
                into: &output
            )
        case .connected:
            if event.kind == .footpod { controller.footpodConnected(event.address) }
            controller.event(.speedSensor(.connected(source, address: event.address)), receivedAt: at, into: &output)
        case .lost(let reason):
            controller.event(.speedSensor(.lost(source, reason: reason)), receivedAt: at, into: &output)
        case .machineStatus(let status):
            controller.event(.speedSensor(.machineStatus("\(status)")), receivedAt: at, into: &output)
        case .feature, .batteryLevel, .unavailable:
            break
        }
    }

    mutating func barometer(_ event: BarometerEvent, _ now: Instant) {
        barometerStatus = barometerStatus ?? BarometerStatus()
        barometerStatus?.update(event)
        guard case .reading(let kilopascal, let receivedAt) = event else { return }
        guard !queue.isFailing else {
            if controller.session != nil { queue.skipped(.beat) }
            return
        }
        controller.pressure(PressureSample(kilopascal: kilopascal, receivedAt: receivedAt), into: &output)
    }
}
