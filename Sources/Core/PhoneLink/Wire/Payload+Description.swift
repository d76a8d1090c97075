import PhoneLinkContract
import PhoneLinkMessages

extension Wearbridge_Link_V1_Payload {
    /// The kind `inbox` and `outbox` list a message under (the same names on both sides).
    public var messageKind: MessageKind {
        switch kind {
        case .snapshot: .snapshot
        case .sessionStarted: .sessionStarted
        case .sessionPaused: .sessionPaused
        case .sessionResumed: .sessionResumed
        case .sessionEnded: .sessionEnded
        case .split: .split
        case .commandReply: .commandReply
        case .notice(let notice): notice.kind.messageKind
        case .raceStarted: .raceStarted
        case nil: .unknown
        }
    }

    /// The session the message belongs to, as UUID text; nil when it names none.
    public var sessionText: String? {
        let text: String
        switch kind {
        case .snapshot(let snapshot): return uuidText(snapshot.session)
        case .sessionStarted(let message): text = message.session
        case .sessionPaused(let message): text = message.session
        case .sessionResumed(let message): text = message.session
        case .sessionEnded(let message): text = message.session
        case .split(let message): text = message.session
        case .commandReply(let message): text = message.session
        case .notice(let message): text = message.session
        case .raceStarted(let message): text = message.session
        case nil: return nil
        }
        return text.isEmpty ? nil : text
    }
}

extension Wearbridge_Link_V1_Notice.Kind {
    var messageKind: MessageKind {
        switch self {
        case .gpsLost: .gpsLost
        case .gpsRegained: .gpsRegained
        case .strapLost: .strapLost
        case .strapRegained: .strapRegained
        case .strapBattery: .strapBattery
        case .storageFailed: .storageFailed
        case .storageRecovered: .storageRecovered
        case .unspecified, .UNRECOGNIZED: .notice
        }
    }
}
