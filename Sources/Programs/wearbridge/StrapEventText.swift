import Bluetooth
import GATT
import HeartRate
import HexCoding
import SessionCore
import Store

/// How `wearbridge strap` prints what the link reports.
enum StrapEventText {
    static func text(_ event: StrapLinkEvent) -> String {
        switch event {
        case .beat(let m, let payload, _): "beat  \(DecodeHRMCommand.text(m))  [\(Hex.encode(payload))]"
        case .malformedBeat(let payload, let reason, _): "malformed  \(Hex.encode(payload)): \(reason)"
        case .strap(let event, _):
            "event  \(SessionEvent.strap(event).storedKind)" + (detail(event).map { " \($0)" } ?? "")
        case .subscribed(let address, _): "subscribed  \(address)"
        case .bodySensorLocation(let name, _): "location  \(name)"
        case .chosen(let address): "chosen  \(address)"
        case .unavailable(let why, _): "held  \(why)"
        }
    }

    static func json(_ event: StrapLinkEvent) -> String {
        (try? JSONLine.encode(StrapEventJSON(event))) ?? "{}"
    }

    /// What an event says beyond its kind, if anything.
    static func detail(_ event: StrapEvent) -> String? {
        switch event {
        case .found(let address): address
        case .lost(let reason): reason
        case .regained(let after): "after \(TextFormat.format(after, 1)) s"
        case .battery(let level): "\(level)%"
        case .contactLost, .contactRegained: nil
        }
    }
}

/// `wearbridge strap --json`: one object per event; fields that do not apply are left out.
private struct StrapEventJSON: Encodable {
    var kind: String
    var t: Double?
    var hex: String?
    var bpm: Int?
    var contact: String?
    var rr_1024: [UInt16]?
    var energy_kj: Int?
    var reason: String?
    var detail: String?
    var address: String?
    var type: String?
    var location: String?

    init(_ event: StrapLinkEvent) {
        switch event {
        case .beat(let m, let payload, let at):
            kind = "beat"
            (t, hex, bpm, contact, rr_1024, energy_kj) =
                (at, Hex.encode(payload), m.bpm, m.contact.rawValue, m.rrIntervals, m.energyExpended)
        case .malformedBeat(let payload, let why, let at):
            (kind, t, hex, reason) = ("malformed", at, Hex.encode(payload), why)
        case .strap(let strapEvent, let at):
            kind = SessionEvent.strap(strapEvent).storedKind
            t = at
            detail = StrapEventText.detail(strapEvent)
        case .subscribed(let strap, let at):
            (kind, t, address) = ("subscribed", at, strap)
        case .bodySensorLocation(let name, let at):
            (kind, t, location) = ("location", at, name)
        case .chosen(let strap):
            (kind, address, type) = ("chosen", strap.text, strap.kind.rawValue)
        case .unavailable(let why, let at):
            (kind, t, reason) = ("held", at, why)
        }
    }
}
