import PhoneLinkContract

extension Wearbridge_Link_V1_Payload {
    /// The kind `inbox` and `outbox` list a message under (the same names on both sides).
    public var kindName: String {
        switch kind {
        case .snapshot: "snapshot"
        case .sessionStarted: "session_started"
        case .sessionPaused: "session_paused"
        case .sessionResumed: "session_resumed"
        case .sessionEnded: "session_ended"
        case .split: "split"
        case .commandReply: "command_reply"
        case .notice(let notice): notice.kind.name
        case nil: "unknown"
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
        case nil: return nil
        }
        return text.isEmpty ? nil : text
    }
}

extension Wearbridge_Link_V1_Notice.Kind {
    var name: String {
        switch self {
        case .gpsLost: "gps_lost"
        case .gpsRegained: "gps_regained"
        case .strapLost: "strap_lost"
        case .strapRegained: "strap_regained"
        case .strapBattery: "strap_battery"
        case .storageFailed: "storage_failed"
        case .storageRecovered: "storage_recovered"
        case .unspecified, .UNRECOGNIZED: "notice"
        }
    }
}
