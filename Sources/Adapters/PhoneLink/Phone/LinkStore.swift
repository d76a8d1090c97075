import Foundation
import GRDB
import PhoneLinkDelivery
import PhoneLinkMessages

/// The link's inbox in the phone's database file: every message each wearable delivered, exactly
/// once, with the marks that make it so (`mark`, `inbox`); the newest snapshot per wearable
/// (`snapshot`); each wearable's link as last seen (`link`). A message is committed with its mark,
/// and with what it settles in the other stores (a command's answer, a session's backfill, the
/// race's queue), in one transaction.
public struct LinkStore: Sendable {
    public let inbox: Inbox

    public init(_ inbox: Inbox) {
        self.inbox = inbox
    }

    var pool: DatabasePool { inbox.pool }

    /// The tables, in the file's first migration.
    static func createTables(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE mark (
                    wearable TEXT NOT NULL, epoch TEXT NOT NULL,
                    mark INTEGER NOT NULL DEFAULT 0, snapshot_seq INTEGER NOT NULL DEFAULT 0,
                    PRIMARY KEY (wearable, epoch));
                CREATE TABLE inbox (
                    wearable TEXT NOT NULL, epoch TEXT NOT NULL, seq INTEGER NOT NULL,
                    class TEXT NOT NULL, kind TEXT NOT NULL, session TEXT,
                    payload BLOB NOT NULL, created_at_ms INTEGER, received_at REAL NOT NULL,
                    PRIMARY KEY (wearable, epoch, seq));
                CREATE TABLE snapshot (
                    wearable TEXT PRIMARY KEY NOT NULL, epoch TEXT NOT NULL, seq INTEGER NOT NULL,
                    payload BLOB NOT NULL, received_at REAL NOT NULL);
                CREATE TABLE link (
                    wearable TEXT PRIMARY KEY NOT NULL, connected INTEGER NOT NULL,
                    last_seen REAL NOT NULL, hello_name TEXT, epoch TEXT);
                """
        )
    }

    /// The head of the wearable's outbox as its hello said: the dashboard's outbox depth.
    static func addOutboxHead(_ db: Database) throws {
        try db.execute(sql: "ALTER TABLE link ADD COLUMN hello_head INTEGER")
    }

    /// The marks for one wearable and epoch (0, 0 for a new one).
    public func mark(wearable: String, epoch: String) throws -> InboxMark {
        try pool.read { db in
            let row = try Row.fetchOne(
                db,
                sql: "SELECT mark, snapshot_seq FROM mark WHERE wearable = ? AND epoch = ?",
                arguments: [wearable, epoch]
            )
            return InboxMark(mark: row?["mark"] ?? 0, snapshot: row?["snapshot_seq"] ?? 0, head: 0)
        }
    }

    /// One delivered message, committed with its mark in one transaction; false when the mark
    /// already covered it (a resend: nothing stored).
    public func commit(_ message: InboxMessage) async throws -> Bool {
        defer { inbox.changes.changed() }
        return try await pool.write { db in
            let current =
                try Row.fetchOne(
                    db,
                    sql: "SELECT mark, snapshot_seq FROM mark WHERE wearable = ? AND epoch = ?",
                    arguments: [message.wearable, message.epoch]
                )
            let mark: Int = current?["mark"] ?? 0
            let snapshotSeq: Int = current?["snapshot_seq"] ?? 0
            if message.isSnapshot {
                guard message.seq > snapshotSeq else { return false }
                try db.execute(
                    sql: """
                            INSERT OR REPLACE INTO snapshot (wearable, epoch, seq, payload, received_at) VALUES (?, ?, ?, ?, ?)
                        """,
                    arguments: [message.wearable, message.epoch, message.seq, message.payload, message.receivedAt]
                )
            } else {
                guard message.seq > mark else { return false }
                try db.execute(
                    sql: """
                            INSERT INTO inbox (wearable, epoch, seq, class, kind, session, payload, created_at_ms, received_at)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                        """,
                    arguments: [
                        message.wearable, message.epoch, message.seq, message.messageClass.rawValue,
                        message.kind.rawValue,
                        message.session, message.payload, message.createdAtMs, message.receivedAt,
                    ]
                )
                if message.kind == .sessionEnded, let session = message.session {
                    // The session is over: pull its whole record, resumably (same transaction).
                    try BackfillStore.ended(wearable: message.wearable, session: session, at: message.receivedAt, db)
                }
                if let answer = message.answer {
                    // The reply and the command's answer in one transaction: the CLI sees both or neither.
                    try CommandStore.answer(answer, at: message.receivedAt, db)
                }
            }
            // A race's messages toward the relay are queued with the message itself.
            for part in inbox.parts { try part.stored(message, db) }
            try db.execute(
                sql: """
                    INSERT INTO mark (wearable, epoch, mark, snapshot_seq) VALUES (?, ?, ?, ?)
                    ON CONFLICT (wearable, epoch) DO UPDATE SET mark = excluded.mark, snapshot_seq = excluded.snapshot_seq
                    """,
                arguments: [
                    message.wearable, message.epoch, message.isSnapshot ? mark : message.seq,
                    message.isSnapshot ? message.seq : snapshotSeq,
                ]
            )
            return true
        }
    }

    /// The link's state as the CLI shows it.
    public func changed(
        wearable: String,
        connected: Bool,
        helloName: String?,
        epoch: String?,
        head: Int? = nil,
        at time: Double
    ) async throws {
        defer { inbox.changes.changed() }
        try await pool.write { db in
            try db.execute(
                sql: """
                    INSERT INTO link (wearable, connected, last_seen, hello_name, epoch, hello_head)
                    VALUES (?, ?, ?, ?, ?, ?)
                    ON CONFLICT (wearable) DO UPDATE SET connected = excluded.connected, last_seen = excluded.last_seen,
                    hello_name = coalesce(excluded.hello_name, hello_name), epoch = coalesce(excluded.epoch, epoch),
                    hello_head = coalesce(excluded.hello_head, hello_head)
                    """,
                arguments: [wearable, connected, time, helloName, epoch, head]
            )
        }
    }

    /// At start-up: every link row says disconnected (the last run may have ended without saying so).
    public func markAllDisconnected() async throws {
        defer { inbox.changes.changed() }
        try await pool.write { db in
            try db.execute(sql: "UPDATE link SET connected = 0 WHERE connected = 1")
        }
    }

    public func seen(wearable: String, at time: Double) async throws {
        try await pool.write { db in
            try db.execute(sql: "UPDATE link SET last_seen = ? WHERE wearable = ?", arguments: [time, wearable])
        }
    }
}
