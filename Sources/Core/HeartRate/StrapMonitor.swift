/// Decides what the strap's comings and goings mean: found, lost, regained, silent, contact.
///
/// Pure: the link layer reports beats and link changes with a monotonic time and asks whether a
/// connected strap has gone quiet (straps on Linux are known to stop notifying after 30, 100 or
/// 150 s while the link stays up); the answers are `StrapEvent`s.
public struct StrapMonitor: Sendable {
    public let address: String
    /// A linked strap with no beat for this long is lost (s).
    public let silenceAfter: Double
    public private(set) var isLinked = false
    public private(set) var lastBeat: Double?
    public private(set) var contact: SensorContact?
    public private(set) var battery: Int?
    private var linkedAt: Double?
    private var lostAt: Double?
    private var everFound = false
    /// Beats seen: lost or not, only a strap that delivered anything can be "lost".
    private var present = false

    public init(address: String, silenceAfter: Double = 5) {
        self.address = address
        self.silenceAfter = silenceAfter
    }

    /// Notifications are enabled on a fresh link.
    public mutating func linked(now: Double) {
        isLinked = true
        linkedAt = now
    }

    public mutating func beat(_ measurement: HeartRateMeasurement, now: Double) -> [StrapEvent] {
        var events: [StrapEvent] = []
        if !everFound {
            everFound = true
            events.append(.found(address: address))
        } else if let lostAt {
            events.append(.regained(after: now - lostAt))
        }
        lostAt = nil
        present = true
        lastBeat = now
        // "Not supported" says nothing either way: only detected <-> not detected are changes.
        switch measurement.contact {
        case .notDetected where contact != .notDetected: events.append(.contactLost)
        case .detected where contact == .notDetected: events.append(.contactRegained)
        default: break
        }
        contact = measurement.contact
        return events
    }

    /// The link went down (or the link layer dropped it for silence); `lost` once per loss.
    public mutating func linkDown(reason: String, now: Double) -> [StrapEvent] {
        isLinked = false
        linkedAt = nil
        guard present else { return [] }
        present = false
        lostAt = now
        return [.lost(reason: reason)]
    }

    /// True when a linked strap has sent nothing for `silenceAfter`: the link layer drops it.
    public func isSilent(now: Double) -> Bool {
        guard let silenceDeadline else { return false }
        return now > silenceDeadline
    }

    /// When a linked strap that stays quiet becomes silent; nil when not linked.
    public var silenceDeadline: Double? {
        guard isLinked, let linkedAt else { return nil }
        return max(lastBeat ?? linkedAt, linkedAt) + silenceAfter
    }

    public mutating func batteryLevel(_ level: Int) -> [StrapEvent] {
        guard (0...100).contains(level), level != battery else { return [] }
        battery = level
        return [.battery(level: level)]
    }
}
