import GATT
import SessionCore
import SpeedSensors
import TrackCore

/// What `status` shows of a footpod or treadmill, kept up to date from its link's events.
struct SpeedSensorStatus: Sendable {
    let kind: SpeedSensorKind
    private(set) var address: String?
    private(set) var last: (sample: SpeedSample, at: Double)?
    private(set) var lost = false
    /// Another program holds the sensor: how, until it streams again.
    private(set) var heldBy: String?
    private(set) var battery: Int?
    private(set) var samples = 0
    private(set) var malformed = 0
    /// The last speed and cadence a sample carried (a treadmill's split records may leave them out).
    private(set) var speed: Double?
    private(set) var cadence: Int?

    /// The sensor's own count (m) at its last reading that carried one, and when it came.
    private(set) var count: (total: Double, at: Double)?

    init(kind: SpeedSensorKind) {
        self.kind = kind
    }

    mutating func update(_ event: SpeedSensorLinkEvent) {
        address = event.address
        switch event.what {
        case .sample(let sample, _):
            last = (sample, event.receivedAt)
            samples += 1
            lost = false
            heldBy = nil
            speed = sample.speed ?? speed
            cadence = sample.cadence ?? cadence
            if let total = sample.totalDistance { count = (total, event.receivedAt) }
        case .malformed: malformed += 1
        case .lost: lost = true
        case .connected:
            lost = false
            heldBy = nil
        case .unavailable(let why): heldBy = why
        case .batteryLevel(let level): battery = level
        case .machineStatus, .feature: break
        }
    }

    func report(now: Double) -> SessionStatus.SpeedSensor {
        SessionStatus.SpeedSensor(
            kind: kind.rawValue,
            link: heldBy != nil ? .held : last == nil && !lost ? .searching : lost ? .lost : .streaming,
            heldBy: heldBy,
            address: address,
            speed: speed,
            cadence: cadence,
            totalDistance: last?.sample.totalDistance,
            batteryPercent: battery,
            lastSampleAge: last.map { now - $0.at },
            samples: samples,
            malformed: malformed
        )
    }
}

extension SpeedSensorKind {
    /// The session's name for where its distance comes from.
    var source: DistanceSource {
        switch self {
        case .footpod: .footpod
        case .treadmill: .treadmill
        }
    }
}
