/// What a link message is, by the name both ends store and list it under (`outbox`, `inbox`):
/// the `kind` columns hold the raw value, and nothing else names a kind as text.
public enum MessageKind: String, Sendable, Equatable, CaseIterable, Encodable {
    case snapshot
    case sessionStarted = "session_started"
    case sessionPaused = "session_paused"
    case sessionResumed = "session_resumed"
    case sessionEnded = "session_ended"
    case split
    case commandReply = "command_reply"
    case gpsLost = "gps_lost"
    case gpsRegained = "gps_regained"
    case strapLost = "strap_lost"
    case strapRegained = "strap_regained"
    case strapBattery = "strap_battery"
    /// On the wire for a storage failure; this wearable reports only the recovery.
    case storageFailed = "storage_failed"
    case storageRecovered = "storage_recovered"
    case raceStarted = "race_started"
    /// A notice of a kind this version does not know (a newer wearable).
    case notice
    /// A payload of a kind this version does not know (a newer wearable): stored, never read.
    case unknown

    /// A notice's kind as a message kind.
    public init(_ notice: LinkNotice.Kind) {
        switch notice {
        case .gpsLost: self = .gpsLost
        case .gpsRegained: self = .gpsRegained
        case .strapLost: self = .strapLost
        case .strapRegained: self = .strapRegained
        case .strapBattery: self = .strapBattery
        case .storageRecovered: self = .storageRecovered
        }
    }
}
