import Bluetooth
import HeartRate
import TrackCore

extension StrapLinkEvent {
    /// What the session log keeps of this event: a beat, an event row, or nothing.
    enum SessionInput {
        case beat(HeartRateSample)
        case event(LoggedEvent, receivedAt: Double)
    }

    var sessionInput: SessionInput? {
        switch self {
        case .beat(let m, let payload, let at):
            return .beat(
                HeartRateSample(
                    bpm: m.bpm,
                    contact: m.contact.rawValue,
                    energyExpended: m.energyExpended,
                    rrIntervals: m.rrIntervals,
                    receivedAt: at,
                    payload: payload
                )
            )
        case .malformedBeat(let payload, let reason, let at):
            return .event(
                LoggedEvent(
                    kind: "hrm_malformed",
                    detail: [
                        "payload": .text(Hex.encode(payload)), "reason": .text(reason),
                    ]
                ),
                receivedAt: at
            )
        case .strap(let event, let at):
            var detail: [String: EventValue] = [:]
            switch event {
            case .found(let address): detail["address"] = .text(address)
            case .lost(let reason): detail["reason"] = .text(reason)
            case .regained(let after): detail["after_s"] = .number(after)
            case .battery(let level): detail["percent"] = .number(Double(level))
            case .contactLost, .contactRegained: break
            }
            return .event(LoggedEvent(kind: event.kind, detail: detail), receivedAt: at)
        case .bodySensorLocation(let name, let at):
            return .event(LoggedEvent(kind: "strap_location", detail: ["location": .text(name)]), receivedAt: at)
        case .subscribed, .chosen:
            return nil
        }
    }
}
