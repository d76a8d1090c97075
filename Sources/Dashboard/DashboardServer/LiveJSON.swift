import DashboardCore
import Foundation
import PhoneLinkContract
import PhoneLinkWire
import PhoneServer

/// The live page's JSON: the link strip, the newest snapshot and the strap, from the inbox's rows
/// and the server's clock (`now`, wall seconds), so every age is the server's.
enum LiveJSON {
    /// The link strip's object for `record`'s wearable, with the newest snapshot it was judged
    /// with (paused or not) and the inbox's mark, read here once for the caller to reuse.
    static func link(
        _ record: LinkRecord?,
        wearable: String,
        inbox: Inbox,
        now: Double,
        limits: LinkLimits
    )
        throws -> (json: [String: Any], snapshot: SnapshotRecord?)
    {
        let snapshot = try inbox.snapshot(wearable: wearable)
        let mark = try record?.epoch.map { try inbox.mark(wearable: wearable, epoch: $0).mark } ?? 0
        let paused = snapshot.map { $0.snapshot.state == .paused || $0.snapshot.state == .autoPaused } ?? false
        let strip = limits.strip(record, paused: paused, now: now)
        let newest = max(mark, snapshot?.seq ?? 0)
        let json: [String: Any] = [
            "state": strip.state.rawValue,
            "last_seen_age_s": JSONText.value(strip.lastSeenAge.map { ($0 * 10).rounded() / 10 }),
            "commands_refused_because": JSONText.value(strip.commandsRefusedBecause),
            "outbox_depth": max(0, (record?.helloHead ?? 0) - newest),
            "high_water": mark,
            "server_time_ms": Int64((now * 1000).rounded()),
        ]
        return (json, snapshot)
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

/// When a link is stale (the phone's `[commands] stale_after`; lost after
/// `PhoneLinkState.lostAfterStale` times it).
struct LinkLimits: Sendable {
    var staleAfter: Double

    /// The strip for a link row at `now` (the server's wall clock, as `last_seen` is).
    func strip(_ record: LinkRecord?, paused: Bool, now: Double) -> LinkStrip {
        LinkStrip(
            connected: record?.connected ?? false,
            lastSeenAge: record.map { max(0, now - $0.lastSeen) },
            paused: paused,
            staleAfter: staleAfter
        )
    }
}
