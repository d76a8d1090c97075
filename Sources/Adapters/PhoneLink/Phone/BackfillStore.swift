import Foundation
import GRDB
import PhoneLinkContract
import SwiftProtobuf

/// One backfilled row of a session, by its seq in the wearable's data log.
public struct BackfillRecord: Sendable {
    public var seq: Int
    public var row: Wearbridge_Link_V1_BackfillRow
}

/// Where a session's backfill stands.
public struct BackfillState: Sendable, Equatable {
    public var session: String
    public var throughSeq: Int
    public var rows: Int
    public var state: Progress

    /// The `backfill` table's `done` column (0, 1, 2); the raw value is the name the CLI and the
    /// dashboard print.
    public enum Progress: String, Sendable, Equatable, CaseIterable, Encodable {
        case pulling, complete
        /// The wearable has no such session.
        case unknown

        /// The `done` column's codec: 0 pulling, 1 complete, 2 unknown.
        init(done: Int) {
            self = done == 1 ? .complete : (done == 2 ? .unknown : .pulling)
        }
    }
}

/// The backfill's part of the phone's database file (`backfill`, `backfill_row`): each session's
/// record pulled from its wearable, row by row, with the cursor that makes the pull resumable. Its
/// migrations are here; `Inbox.migrator` says where they run among the file's others.
public struct BackfillStore: Sendable {
    public let inbox: Inbox

    public init(_ inbox: Inbox) {
        self.inbox = inbox
    }

    private var pool: DatabasePool { inbox.pool }

    /// `v2-backfill`: a session's whole record pulled from the wearable: rows by seq, and the
    /// cursor that makes it resumable (done: 0 pulling, 1 complete, 2 the wearable has no such session).
    static func createTables(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE backfill (
                    wearable TEXT NOT NULL, session TEXT NOT NULL, through_seq INTEGER NOT NULL DEFAULT 0,
                    done INTEGER NOT NULL DEFAULT 0, requested_at REAL NOT NULL, rows INTEGER NOT NULL DEFAULT 0,
                    PRIMARY KEY (wearable, session));
                CREATE TABLE backfill_row (
                    wearable TEXT NOT NULL, session TEXT NOT NULL, seq INTEGER NOT NULL, kind TEXT NOT NULL,
                    row BLOB NOT NULL, PRIMARY KEY (wearable, session, seq)) WITHOUT ROWID;
                """
        )
    }

    /// `v6-backfill-replay`: what replaying a backfilled session needs besides its rows, as the
    /// wearable's log says: where its distance came from, and the footpod factors an indoor session
    /// applied.
    static func addReplayColumns(_ db: Database) throws {
        try db.execute(
            sql: """
                ALTER TABLE backfill ADD COLUMN distance_source TEXT;
                ALTER TABLE backfill ADD COLUMN stride_factors TEXT;
                """
        )
    }

    /// Asks for a session's record (again: rows after the cursor, e.g. of a session still open).
    public func request(wearable: String, session: String, at time: Double) async throws {
        try await pool.write { db in
            try db.execute(
                sql: """
                    INSERT INTO backfill (wearable, session, requested_at) VALUES (?, ?, ?)
                    ON CONFLICT (wearable, session) DO UPDATE SET done = 0, requested_at = excluded.requested_at
                    """,
                arguments: [wearable, session, time]
            )
        }
    }

    /// A session ended (inside the inbox's transaction that stores its end): its whole record is
    /// to be pulled. One followed while it ran (the dashboard) may be marked complete: its tail is
    /// pulled again.
    static func ended(wearable: String, session: String, at time: Double, _ db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO backfill (wearable, session, requested_at) VALUES (?, ?, ?)
                ON CONFLICT (wearable, session) DO UPDATE SET done = 0 WHERE done = 1
                """,
            arguments: [wearable, session, time]
        )
    }

    /// The next session to pull for `wearable`, and the cursor to resume from.
    func next(wearable: String) throws -> (session: String, after: Int)? {
        try pool.read { db in
            try Row.fetchOne(
                db,
                sql:
                    "SELECT session, through_seq FROM backfill WHERE wearable = ? AND done = 0 ORDER BY requested_at LIMIT 1",
                arguments: [wearable]
            ).map { ($0["session"], $0["through_seq"]) }
        }
    }

    /// One chunk with its cursor in one transaction: an interruption resumes after the last commit.
    /// Returns how many rows were new.
    @discardableResult
    public func commit(_ chunk: Wearbridge_Link_V1_BackfillChunk, wearable: String) async throws -> Int {
        defer { inbox.changes.changed() }
        return try await pool.write { db in
            guard
                let through = try Int.fetchOne(
                    db,
                    sql: "SELECT through_seq FROM backfill WHERE wearable = ? AND session = ? AND done = 0",
                    arguments: [wearable, chunk.session]
                ), through == Int(clamping: chunk.afterSeq)
            else { return 0 }  // not asked for, or an answer to an older request: nothing to keep
            if chunk.unknownSession {
                try db.execute(
                    sql: "UPDATE backfill SET done = 2 WHERE wearable = ? AND session = ?",
                    arguments: [wearable, chunk.session]
                )
                return 0
            }
            var added = 0
            var last = through
            for row in chunk.rows {
                let seq = Int(clamping: row.seq)
                guard seq > last else { continue }  // out of order or repeated: never stored twice
                last = seq
                let kind: String
                switch row.row {
                case .fix: kind = "fix"
                case .beat: kind = "beat"
                case .event: kind = "event"
                case .command: kind = "command"
                case .speed: kind = "speed"
                case nil: kind = "unknown"
                }
                try db.execute(
                    sql:
                        "INSERT OR IGNORE INTO backfill_row (wearable, session, seq, kind, row) VALUES (?, ?, ?, ?, ?)",
                    arguments: [wearable, chunk.session, seq, kind, try row.serializedBytes() as Data]
                )
                added += db.changesCount
            }
            try db.execute(
                sql: """
                    UPDATE backfill SET through_seq = ?, done = ?, rows = rows + ?,
                        distance_source = coalesce(?, distance_source), stride_factors = coalesce(?, stride_factors)
                    WHERE wearable = ? AND session = ?
                    """,
                arguments: [
                    last, chunk.done ? 1 : 0, added, chunk.distanceSource.isEmpty ? nil : chunk.distanceSource,
                    chunk.strideFactorsJson.isEmpty ? nil : chunk.strideFactorsJson, wearable, chunk.session,
                ]
            )
            return added
        }
    }

    public func state(session: String) throws -> BackfillState? {
        try pool.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM backfill WHERE session = ?", arguments: [session]).map {
                let done: Int = $0["done"]
                return BackfillState(
                    session: session,
                    throughSeq: $0["through_seq"],
                    rows: $0["rows"],
                    state: BackfillState.Progress(done: done)
                )
            }
        }
    }

    /// Backfilled rows of a session by kind (fix, beat, speed, event, command).
    public func counts(session: String) throws -> [String: Int] {
        try pool.read { db in
            var counts: [String: Int] = [:]
            for row in try Row.fetchAll(
                db,
                sql: "SELECT kind, count(*) AS n FROM backfill_row WHERE session = ? GROUP BY kind",
                arguments: [session]
            ) {
                counts[row["kind"]] = row["n"]
            }
            return counts
        }
    }

    /// Backfilled rows of `session` after `seq`, in order, at most `limit`.
    public func rows(session: String, after seq: Int, limit: Int) throws -> [BackfillRecord] {
        try pool.read { db in
            try Row.fetchAll(
                db,
                sql: "SELECT seq, row FROM backfill_row WHERE session = ? AND seq > ? ORDER BY seq LIMIT ?",
                arguments: [session, seq, limit]
            ).compactMap { row in
                let data: Data = row["row"]
                guard let decoded = try? Wearbridge_Link_V1_BackfillRow(serializedBytes: data) else { return nil }
                return BackfillRecord(seq: row["seq"], row: decoded)
            }
        }
    }
}
