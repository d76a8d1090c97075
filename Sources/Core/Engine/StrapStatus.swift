import GATT
import HeartRate
import SessionCore

/// What `status` shows of the strap, kept up to date from the link's events.
struct StrapStatus: Sendable {
    private(set) var address: String?
    private(set) var lastBeat: (measurement: HeartRateMeasurement, at: Double)?
    private(set) var lost = false
    /// Another program holds the strap: how, until it streams again.
    private(set) var heldBy: String?
    private(set) var battery: Int?
    private(set) var location: String?
    private(set) var beats = 0
    private(set) var malformed = 0

    mutating func update(_ event: StrapLinkEvent) {
        switch event {
        case .beat(let measurement, _, let at):
            lastBeat = (measurement, at)
            beats += 1
            lost = false
            heldBy = nil
        case .malformedBeat:
            malformed += 1
        case .strap(.lost, _): lost = true
        case .strap(.battery(let level), _): battery = level
        case .strap: break
        case .subscribed(let address, _):
            self.address = address
            heldBy = nil
        case .unavailable(let why, _): heldBy = why
        case .bodySensorLocation(let name, _): location = name
        case .chosen(let chosen): address = chosen.text
        }
    }

    func report(now: Double) -> SessionStatus.HeartRate {
        SessionStatus.HeartRate(
            link: heldBy != nil ? .held : lastBeat == nil ? .searching : lost ? .lost : .streaming,
            heldBy: heldBy,
            address: address,
            bpm: lastBeat?.measurement.bpm,
            contact: lastBeat?.measurement.contact,
            batteryPercent: battery,
            location: location,
            lastBeatAge: lastBeat.map { now - $0.at },
            beats: beats,
            malformed: malformed
        )
    }
}
