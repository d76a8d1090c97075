import Foundation
import PhoneLinkContract
import PhoneServer

/// One inbox message as the page reads it: its seq, kind and typed fields as numbers (never the
/// protobuf JSON mapping, which writes 64-bit integers as strings).
enum MessageJSON {
    static func object(_ message: InboxMessage) -> [String: Any] {
        var object: [String: Any] = [
            "seq": message.seq,
            "kind": message.kind.rawValue,
            "session": JSONText.value(message.session),
            "received_at_ms": Int64((message.receivedAt * 1000).rounded()),
            "created_at_ms": message.createdAtMs,
        ]
        guard let payload = try? Wearbridge_Link_V1_Payload(serializedBytes: message.payload) else { return object }
        switch payload.kind {
        case .sessionStarted(let started):
            object["activity"] = started.activity
            object["started_at_ms"] = started.startedAtMs
            object["command_id"] = JSONText.value(started.commandID.isEmpty ? nil : started.commandID)
        case .sessionPaused(let paused):
            object["auto"] = paused.auto
            object["distance_m"] = Double(paused.distanceDm) / 10
            object["elapsed_s"] = Int(paused.elapsedS)
        case .sessionResumed(let resumed):
            object["auto"] = resumed.auto
            object["distance_m"] = Double(resumed.distanceDm) / 10
            object["elapsed_s"] = Int(resumed.elapsedS)
        case .sessionEnded(let ended):
            object["reason"] = ended.reason
            object["distance_m"] = ended.distanceM
            object["elapsed_s"] = ended.elapsedS
            object["moving_s"] = ended.movingS
            object["paused_s"] = ended.pausedS
            object["splits"] = Int(ended.splits)
            object["avg_heart_rate"] = JSONText.value(ended.avgHeartRate == 0 ? nil : Int(ended.avgHeartRate))
            object["max_heart_rate"] = JSONText.value(ended.maxHeartRate == 0 ? nil : Int(ended.maxHeartRate))
        case .split(let split):
            object["index"] = Int(split.index)
            object["distance_m"] = split.distanceM
            object["duration_s"] = split.durationS
            object["avg_heart_rate"] = JSONText.value(split.avgHeartRate == 0 ? nil : Int(split.avgHeartRate))
        case .commandReply(let reply):
            object["command_id"] = reply.commandID
            object["ok"] = reply.ok
            object["reason"] = JSONText.value(reply.ok ? nil : reasonName(reply.reason))
            object["message"] = reply.message
            object["state"] = LiveJSON.stateName(reply.state)
        case .notice(let notice):
            object["detail"] = notice.detail
            if notice.kind == .strapBattery { object["battery_percent"] = Int(notice.batteryPercent) }
        case .raceStarted(let race):
            object["run"] = race.run
            object["start_offset_ms"] = race.startOffsetMs
            object["clock"] = race.clock
        case .snapshot, nil:
            break
        }
        return object
    }

    static func reasonName(_ reason: Wearbridge_Link_V1_FailReason) -> String {
        switch reason {
        case .alreadyActive: "already_active"
        case .notActive: "not_active"
        case .alreadyPaused: "already_paused"
        case .notPaused: "not_paused"
        case .expired: "expired"
        case .invalid: "invalid"
        case .busy: "busy"
        case .notReady: "not_ready"
        default: "unknown"
        }
    }
}
