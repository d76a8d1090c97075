import Engine
import Foundation
import GRDB
import SessionCore
import TrackCore

extension SessionLog {
    /// Writes one batch in one transaction: one fsync, whatever its size; all of it or none.
    ///
    /// Throws the failure as the engine needs it: a full disk, an I/O error, anything else.
    public func write(_ batch: WriteBatch) async throws(StorageFailure) {
        guard let writer else { throw StorageFailure(.other, "\(path) is open read-only") }
        do {
            try await writer.write { db in
                for row in batch.rows {
                    switch row {
                    case .session(let row): try Self.insert(row, db)
                    case .outbox(let message, let createdAt): try Self.insertOutbox(message, createdAt: createdAt, db)
                    }
                }
                if let live = batch.live { try Self.update(live.sessionID, with: live.summary, db) }
            }
        } catch {
            throw storageFailure(error)
        }
    }

    /// SQLite's result code as the engine tells failures apart, with the file named.
    func storageFailure(_ error: any Error) -> StorageFailure {
        guard let error = error as? DatabaseError else { return StorageFailure(.other, "\(error) (\(path))") }
        let message = "\(error.message ?? "\(error.resultCode)") (\(path))"
        switch error.resultCode {
        case .SQLITE_FULL: return StorageFailure(.full, message)
        case .SQLITE_IOERR: return StorageFailure(.io, message)
        default: return StorageFailure(.other, message)
        }
    }

    private static func insert(_ row: SessionRow, _ db: Database) throws {
        switch row {
        case .begin(let id, let activity, let anchor, let source, let factors, let energy):
            let factorsJSON = try factors.map { String(decoding: try JSONEncoder().encode($0), as: UTF8.self) }
            let energyJSON = try energy.map { String(decoding: try JSONEncoder().encode($0), as: UTF8.self) }
            try db.executeCached(
                sql: """
                    INSERT INTO session (id, state, activity, started_at, start_anchor, distance_source, stride_factors,
                        energy)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    id, "starting", activity.rawValue, anchor.seconds, anchor.source.rawValue, source.rawValue,
                    factorsJSON, energyJSON,
                ]
            )
        case .fix(let id, let seq, let fix, let verdict):
            var smoothed: GeoPoint?
            if case .accepted(let point) = verdict { smoothed = point }
            try db.executeCached(
                sql: """
                    INSERT OR REPLACE INTO fix (session_id, seq, received, time, mode, lat, lon, epx, epy, eph, speed,
                        track, eps, verdict, smoothed_lat, smoothed_lon, alt, epv)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    id, seq, fix.receivedAt, fix.time?.seconds, fix.mode, fix.position?.latitude.finite,
                    fix.position?.longitude.finite, fix.errorEast?.finite, fix.errorNorth?.finite,
                    fix.horizontalError?.finite, fix.speed?.finite, fix.track?.finite, fix.speedError?.finite,
                    verdict.storedName, smoothed?.latitude, smoothed?.longitude, fix.altitude?.finite,
                    fix.verticalError?.finite,
                ]
            )
        case .event(let seq, let announcement):
            guard let id = announcement.sessionID else { return }
            let event = announcement.event
            try db.executeCached(
                sql:
                    "INSERT OR REPLACE INTO event (session_id, seq, kind, time, received, detail) VALUES (?, ?, ?, ?, ?, ?)",
                arguments: [
                    id, seq, event.storedKind, announcement.time?.seconds, announcement.receivedAt,
                    detailJSON(event.storedDetail),
                ]
            )
            if case .track(.split(let split)) = event {
                // The split row and the split event are one object: the same figures, always.
                try db.executeCached(
                    sql: """
                        INSERT OR REPLACE INTO split (session_id, idx, distance_m, duration_s, end_timer_s, avg_hr)
                        VALUES (?, ?, ?, ?, ?, ?)
                        """,
                    arguments: [
                        id, split.index, split.distance, split.duration, split.endTimer, split.averageHeartRate,
                    ]
                )
            }
        case .command(let id, let seq, let reply, let receivedAt):
            let json = String(decoding: try JSONEncoder().encode(reply), as: UTF8.self)
            try db.executeCached(
                sql: """
                    INSERT OR IGNORE INTO command (id, session_id, seq, command, accepted, reply, received)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [reply.commandID, id, seq, reply.command.rawValue, reply.accepted, json, receivedAt]
            )
        case .heartRate(let id, let seq, let sample, let time):
            let rr = "[" + sample.rrIntervals.map(String.init).joined(separator: ",") + "]"
            try db.executeCached(
                sql: """
                    INSERT OR REPLACE INTO heart_rate (session_id, seq, received, time, bpm, contact, energy_kj, rr, payload)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    id, seq, sample.receivedAt, time?.seconds, sample.bpm, sample.contact.storedName,
                    sample.energyExpended, rr, Data(sample.payload),
                ]
            )
        case .speed(let id, let seq, let sample):
            let reading = sample.reading
            try db.executeCached(
                sql: """
                    INSERT OR REPLACE INTO speed (session_id, seq, received, time, source, speed, cadence, stride,
                        total_m, incline, elapsed_s, payload, steps, still)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    id, seq, sample.receivedAt, sample.time, sample.source.rawValue, reading.speed, reading.cadence,
                    reading.strideLength, reading.totalDistance, reading.inclination, reading.elapsedTime,
                    Data(sample.payload), reading.steps, reading.still,
                ]
            )
        case .pressure(let id, let seq, let sample):
            try db.executeCached(
                sql: "INSERT OR REPLACE INTO pressure (session_id, seq, received, time, kpa) VALUES (?, ?, ?, ?, ?)",
                arguments: [id, seq, sample.receivedAt, sample.time, sample.kilopascal]
            )
        case .calibration(let id, let footpod, let stretch, let fixed):
            // Dated by the session's start on its own clock (a stretch's instants are monotonic); a
            // fixed one outside a session, by the batch's wall clock.
            try db.executeCached(
                sql: """
                    INSERT INTO calibration (footpod, session_id, kind, start, end, gps_m, footpod_m, speed, band,
                        recorded_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, coalesce((SELECT started_at FROM session WHERE id = ?), ?))
                    """,
                arguments: [
                    footpod, id, fixed ? "fixed" : "gps", stretch.start, stretch.end, stretch.gpsMetres,
                    stretch.footpodMetres, stretch.speed, stretch.band, id, Date().timeIntervalSince1970,
                ]
            )
        case .state(let id, let state):
            try db.executeCached(sql: "UPDATE session SET state = ? WHERE id = ?", arguments: [state.name, id])
        case .finish(let id, let summary, let reason, let endedAt):
            try update(id, with: summary, db)
            try db.executeCached(
                sql: "UPDATE session SET state = ?, end_reason = ?, ended_at = ?, end_anchor = ? WHERE id = ?",
                arguments: [
                    reason == .command ? "ended" : "abandoned", reason.rawValue, endedAt?.seconds,
                    endedAt?.source.rawValue, id,
                ]
            )
        case .coursePart(let part):
            try db.executeCached(
                sql: """
                    INSERT OR REPLACE INTO course_part (course_id, idx, count, total_bytes, bytes)
                    VALUES (?, ?, ?, ?, ?)
                    """,
                arguments: [part.courseID, part.index, part.count, part.totalBytes, Data(part.bytes)]
            )
        case .courseKept(let id, let name, let bytes):
            try db.executeCached(
                sql: "INSERT OR REPLACE INTO course (name, course_id, bytes, kept_at) VALUES (?, ?, ?, ?)",
                arguments: [name, id, Data(bytes), Date().timeIntervalSince1970]
            )
            try db.executeCached(sql: "DELETE FROM course_part WHERE course_id = ?", arguments: [id])
        case .courseRemoved(let name):
            try db.executeCached(sql: "DELETE FROM course WHERE name = ?", arguments: [name])
        }
    }

    private static func update(_ id: String, with summary: SessionSummary, _ db: Database) throws {
        let json = String(decoding: try JSONEncoder().encode(StoredSummary(summary)), as: UTF8.self)
        try db.executeCached(
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

    static func detailJSON(_ detail: [String: StoredValue]) -> String {
        DetailJSON.text(detail)
    }
}

extension LoggedVerdict {
    /// The `verdict` column: "accepted" or the reason for the rejection.
    var storedName: String {
        switch self {
        case .accepted: "accepted"
        case .rejected(let reason): reason.rawValue
        }
    }
}

extension Double {
    /// SQLite stores NaN as NULL anyway; say so explicitly.
    var finite: Double? { isFinite ? self : nil }
}
