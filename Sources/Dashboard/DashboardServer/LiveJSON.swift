import DashboardCore
import Foundation
import PhoneLinkContract
import PhoneLinkWire
import PhoneServer

/// The live page's JSON: the link strip, the newest snapshot and the strap, from the inbox's rows
/// and the server's clock (`now`, wall seconds), so every age is the server's.
enum LiveJSON {
    static func link(
        _ record: LinkRecord?,
        snapshot: SnapshotRecord?,
        mark: Int,
        now: Double,
        config: LinkLimits
    )
        -> [String: Any]
    {
        let paused = snapshot.map { $0.snapshot.state == .paused || $0.snapshot.state == .autoPaused } ?? false
        let strip = LinkStrip(
            connected: record?.connected ?? false,
            lastSeenAge: record.map { max(0, now - $0.lastSeen) },
            paused: paused,
            staleAfter: config.staleAfter,
            lostAfter: config.lostAfter
        )
        let newest = max(mark, snapshot?.seq ?? 0)
        return [
            "state": strip.state.rawValue,
            "last_seen_age_s": JSONText.value(strip.lastSeenAge.map { ($0 * 10).rounded() / 10 }),
            "commands_refused_because": JSONText.value(strip.commandsRefusedBecause),
            "outbox_depth": max(0, (record?.helloHead ?? 0) - newest),
            "high_water": mark,
            "server_time_ms": Int64((now * 1000).rounded()),
        ]
    }

    static func snapshot(_ record: SnapshotRecord, now: Double) -> [String: Any] {
        let snapshot = record.snapshot
        return [
            "seq": record.seq,
            "age_s": (max(0, now - record.receivedAt) * 10).rounded() / 10,
            "received_at_ms": Int64((record.receivedAt * 1000).rounded()),
            "session": JSONText.value(snapshot.session.isEmpty ? nil : uuidText(snapshot.session)),
            "state": stateName(snapshot.state),
            "distance_m": Double(snapshot.distanceDm) / 10,
            "elapsed_s": Int(snapshot.elapsedS),
            "moving_s": Int(snapshot.movingS),
            "pace_s_per_km": JSONText.value(snapshot.paceSPerKm == 0 ? nil : Int(snapshot.paceSPerKm)),
            "avg_pace_s_per_km": JSONText.value(snapshot.avgPaceSPerKm == 0 ? nil : Int(snapshot.avgPaceSPerKm)),
            "heart_rate": JSONText.value(snapshot.heartRate == 0 ? nil : Int(snapshot.heartRate)),
            "zone": JSONText.value(snapshot.zone == 0 ? nil : Int(snapshot.zone)),
            "zone_floors_bpm": snapshot.zoneFloorsBpm.map { Int($0) },
            "gps": gpsName(snapshot.gps),
            "strap_lost": snapshot.strapLost,
        ]
    }

    static func stateName(_ state: Wearbridge_Link_V1_SessionState) -> String {
        switch state {
        case .idle: "idle"
        case .starting: "starting"
        case .active: "active"
        case .paused: "paused"
        case .autoPaused: "auto_paused"
        case .ending: "ending"
        default: "unknown"
        }
    }

    static func gpsName(_ quality: Wearbridge_Link_V1_GpsQuality) -> String {
        switch quality {
        case .none: "none"
        case .lost: "lost"
        case .poor: "poor"
        case .good: "good"
        default: "unknown"
        }
    }
}

/// When a link is stale and when lost (the phone's `[commands] stale_after`, and six times it).
struct LinkLimits: Sendable {
    var staleAfter: Double
    var lostAfter: Double { staleAfter * 6 }
}
