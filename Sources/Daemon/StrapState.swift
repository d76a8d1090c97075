import Bluetooth
import Control
import HeartRate

/// What `ctl status` shows of the strap, kept up to date from the link's events.
struct StrapState {
    var address: String?
    var lastBeat: (measurement: HeartRateMeasurement, at: Double)?
    var lost = false
    var battery: Int?
    var location: String?
    var beats = 0
    var malformed = 0

    mutating func update(_ event: StrapLinkEvent) {
        switch event {
        case .beat(let measurement, _, let at):
            lastBeat = (measurement, at)
            beats += 1
            lost = false
        case .malformedBeat:
            malformed += 1
        case .strap(.lost, _): lost = true
        case .strap(.battery(let level), _): battery = level
        case .strap: break
        case .subscribed(let address, _): self.address = address
        case .bodySensorLocation(let name, _): location = name
        case .chosen(let chosen): address = chosen.text
        }
    }

    func report(now: Double) -> StatusReport.HeartRate {
        StatusReport.HeartRate(
            link: lastBeat == nil ? "searching" : lost ? "lost" : "streaming",
            address: address,
            bpm: lastBeat?.measurement.bpm,
            contact: lastBeat?.measurement.contact.rawValue,
            batteryPercent: battery,
            location: location,
            lastBeatAge: lastBeat.map { now - $0.at },
            beats: beats,
            malformed: malformed
        )
    }
}
