import Foundation
import GRDB
import TrackCore

extension SessionLog {
    /// Writes one batch in one transaction: one fsync, whatever its size.
    public func write(_ batch: LogBatch) async throws {
        guard !batch.isEmpty else { return }
        try await database.write { db in
            for action in batch.actions { try Self.apply(action, db) }
            if let live = batch.live { try Self.update(live.sessionID, with: live.summary, db) }
        }
    }

    private static func apply(_ action: SessionAction, _ db: Database) throws {
        switch action {
        case .begin(let id, let activity, let anchor):
            try db.execute(
                sql: "INSERT INTO session (id, state, activity, started_at, start_anchor) VALUES (?, ?, ?, ?, ?)",
                arguments: [id, "starting", activity.rawValue, anchor.seconds, anchor.source.rawValue]
            )
        case .recordFix(let id, let seq, let fix, let verdict):
            var smoothed: GeoPoint?
            if case .accepted(let point) = verdict { smoothed = point }
            try db.execute(
                sql: """
                    INSERT OR REPLACE INTO fix (session_id, seq, received, time, mode, lat, lon, epx, epy, eph, speed,
                        track, eps, verdict, smoothed_lat, smoothed_lon)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    id, seq, fix.receivedAt, fix.time?.seconds, fix.mode, fix.position?.latitude.finite,
                    fix.position?.longitude.finite, fix.errorEast?.finite, fix.errorNorth?.finite,
                    fix.horizontalError?.finite, fix.speed?.finite, fix.track?.finite, fix.speedError?.finite,
                    verdict.name, smoothed?.latitude, smoothed?.longitude,
                ]
            )
        case .recordEvent(let id, let seq, let event, let receivedAt):
            try db.execute(
                sql:
                    "INSERT OR REPLACE INTO event (session_id, seq, kind, time, received, detail) VALUES (?, ?, ?, ?, ?, ?)",
                arguments: [id, seq, event.kind, event.time?.seconds, receivedAt, detailJSON(event.detail)]
            )
            if event.kind == "split" { try insertSplit(id, event.detail, db) }
        case .recordCommand(let id, let seq, let reply, let receivedAt):
            let json = String(decoding: try JSONEncoder().encode(reply), as: UTF8.self)
            try db.execute(
                sql: """
                    INSERT OR IGNORE INTO command (id, session_id, seq, command, accepted, reply, received)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [reply.commandID, id, seq, reply.command.rawValue, reply.accepted, json, receivedAt]
            )
        case .recordHeartRate(let id, let seq, let sample, let time):
            let rr = "[" + sample.rrIntervals.map(String.init).joined(separator: ",") + "]"
            try db.execute(
                sql: """
                    INSERT OR REPLACE INTO heart_rate (session_id, seq, received, time, bpm, contact, energy_kj, rr, payload)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    id, seq, sample.receivedAt, time?.seconds, sample.bpm, sample.contact, sample.energyExpended, rr,
                    Data(sample.payload),
                ]
            )
        case .stateChanged(let id, let state):
            try db.execute(sql: "UPDATE session SET state = ? WHERE id = ?", arguments: [state.name, id])
        case .finish(let id, let summary, let reason, let endedAt):
            try update(id, with: summary, db)
            try db.execute(
                sql: "UPDATE session SET state = ?, end_reason = ?, ended_at = ?, end_anchor = ? WHERE id = ?",
                arguments: [
                    reason == .command ? "ended" : "abandoned", reason.rawValue, endedAt?.seconds,
                    endedAt?.source.rawValue, id,
                ]
            )
        }
    }

    private static func update(_ id: String, with summary: SessionSummary, _ db: Database) throws {
        let json = String(decoding: try JSONEncoder().encode(StoredSummary(summary)), as: UTF8.self)
        try db.execute(
            sql: """
                UPDATE session SET distance_m = ?, elapsed_s = ?, moving_s = ?, paused_s = ?, fixes_accepted = ?,
                    fixes_rejected = ?, summary = ? WHERE id = ?
                """,
            arguments: [
                summary.distance, summary.elapsed, summary.moving, summary.paused, summary.accepted,
                summary.rejectedTotal, json, id,
            ]
        )
    }

    private static func insertSplit(_ id: String, _ detail: [String: EventValue], _ db: Database) throws {
        guard case .number(let index)? = detail["index"], case .number(let distance)? = detail["distance_m"],
            case .number(let duration)? = detail["duration_s"], case .number(let end)? = detail["end_timer_s"]
        else { return }
        try db.execute(
            sql:
                "INSERT OR REPLACE INTO split (session_id, idx, distance_m, duration_s, end_timer_s) VALUES (?, ?, ?, ?, ?)",
            arguments: [id, Int(index), distance, duration, end]
        )
    }

    static func detailJSON(_ detail: [String: EventValue]) -> String {
        var object: [String: Any] = [:]
        for (key, value) in detail {
            switch value {
            case .number(let number): object[key] = number.isFinite ? number : nil
            case .text(let text): object[key] = text
            }
        }
        guard
            let data = try? JSONSerialization.data(
                withJSONObject: object,
                options: [.sortedKeys, .withoutEscapingSlashes]
            )
        else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }
}

extension Double {
    /// SQLite stores NaN as NULL anyway; say so explicitly.
    var finite: Double? { isFinite ? self : nil }
}
