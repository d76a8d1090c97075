import Engine
import GPSD
import GPSDLink
import Logging
import Synchronization

/// gpsd's reports into the engine. What the session does not use but a field tester wants to see
/// (versions, gpsd's own errors, malformed lines) is logged here, at the link's edge; device
/// changes are session events, which the journal sink logs.
struct GPSDProducer: EngineProducer {
    let role = EngineProducerRole.source
    let name = "gpsd"
    let connection: GPSDConnection
    let logger: Logger
    /// Malformed lines logged one by one; past that, only counted (and the count logged now and then).
    let maxLoggedMalformed = 50

    func run(into inbox: EngineInbox) async {
        let malformed = Atomic<Int>(0)
        let logger = self.logger
        let limit = maxLoggedMalformed
        await connection.run { event in
            switch event {
            case .message(.version(let version), _):
                logger.info("gpsd version", metadata: ["gpsd.release": "\(version.release ?? "?")"])
            case .message(.error(let message), _):
                logger.warning("gpsd reported an error", metadata: ["gpsd.error": "\(message)"])
            case .malformed(let reason, let line):
                let count = malformed.add(1, ordering: .relaxed).newValue
                if count <= limit || count.isMultiple(of: 1000) {
                    logger.warning(
                        "malformed gpsd line",
                        metadata: ["line": "\(line)", "error": "\(reason)", "count": "\(count)"]
                    )
                }
            default:
                break
            }
            if let input = GPSInput(event) { inbox.send(.gps(input)) }
        }
    }
}

extension GPSInput {
    /// gpsd's report as the engine takes it; nil for what only this edge logs (versions, malformed
    /// lines, classes the session does not use).
    init?(_ event: GPSDLinkEvent) {
        switch event {
        case .connected: self = .connected
        case .disconnected(let reason): self = .disconnected(reason: reason)
        case .message(.tpv(let tpv), let receivedAt):
            self = .fix(tpv.fix(receivedAt: receivedAt), receivedAt: receivedAt)
        case .message(.device(let device), let receivedAt):
            guard let activated = device.isActive else { return nil }
            self = .device(path: device.path ?? "", activated: activated, receivedAt: receivedAt)
        case .message(.devices(let devices), _):
            self = .receivers(devices.filter { $0.isActive != false }.compactMap(\.path))
        case .message(.sky(let sky), _): self = .sky(seen: sky.nSat, used: sky.uSat)
        case .message(.error(let message), _): self = .gpsdError(message)
        case .message, .malformed: return nil
        }
    }
}
