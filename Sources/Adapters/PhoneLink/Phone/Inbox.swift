import Foundation
import GRDB
import PhoneLinkDelivery
import PhoneLinkMessages
import Synchronization

/// The phone's durable inbox: every message each wearable delivered, exactly once, with the
/// marks that make it so; the newest snapshot per wearable; the links. The file's other owners
/// keep their tables in stores beside it (`commands`, `backfill`, the race's parts). SQLite in WAL mode with `synchronous = FULL`: an ack follows a commit that survives
/// power loss.
public final class Inbox: Sendable {
    public static let fileName = "wearbridge-phone.sqlite"
    public let path: String
    package let pool: DatabasePool
    /// The parts that keep tables of their own in the inbox's file (the race's): their migrations
    /// run with the inbox's, and each stored wearable message goes through them in its transaction.
    let parts: [any InboxPart.Type]
    /// Bumped after each commit of what the relay said about a partner: the link's forwarder reads
    /// the inbox again only then.
    package let partnerVersion = Atomic<Int>(0)
    /// Wakes the dashboard's streams after every commit they may show.
    public let changes = InboxSignal()

    private init(path: String, pool: DatabasePool, parts: [any InboxPart.Type]) {
        self.path = path
        self.pool = pool
        self.parts = parts
    }

    /// Opens (and, unless `readOnly`, migrates) the phone's database in `directory`, with the
    /// `parts` that keep tables in it. The phone always opens it with the same parts.
    public static func open(
        directory: String,
        readOnly: Bool = false,
        parts: [any InboxPart.Type]
    ) throws -> Inbox {
        let path = (directory as NSString).appendingPathComponent(fileName)
        var configuration = Configuration()
        configuration.busyMode = .timeout(5)
        configuration.readonly = readOnly
        if readOnly, !FileManager.default.fileExists(atPath: path) {
            throw InboxError("no inbox at \(path) yet (has `wearbridge-phone run` run?)")
        }
        let pool = try DatabasePool(path: path, configuration: configuration)
        if !readOnly {
            try pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
            try migrator(parts).migrate(pool)
        }
        return Inbox(path: path, pool: pool, parts: parts)
    }

    static func migrator(_ parts: [any InboxPart.Type]) -> DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-inbox") { db in
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
                    CREATE TABLE command (
                        id TEXT PRIMARY KEY NOT NULL, wearable TEXT NOT NULL, kind TEXT NOT NULL,
                        activity TEXT, issued_at REAL NOT NULL, valid_for REAL NOT NULL, deadline REAL NOT NULL,
                        state TEXT NOT NULL DEFAULT 'pending', sends INTEGER NOT NULL DEFAULT 0,
                        ok INTEGER, reason TEXT, message TEXT, session TEXT, answered_at REAL);
                    """
            )
        }
        migrator.registerMigration("v2-backfill", migrate: BackfillStore.createTables)
        // The parts' migrations come third: the identifiers and order every phone's file has.
        for part in parts { part.registerMigrations(&migrator) }
        migrator.registerMigration("v5-outbox-head") { db in
            // The head of the wearable's outbox as its hello said: the dashboard's outbox depth.
            try db.execute(sql: "ALTER TABLE link ADD COLUMN hello_head INTEGER")
        }
        migrator.registerMigration("v6-backfill-replay", migrate: BackfillStore.addReplayColumns)
        return migrator
    }

    /// The backfilled sessions' store in this file.
    public var backfill: BackfillStore { BackfillStore(self) }

    /// The commands' store in this file.
    public var commands: CommandStore { CommandStore(self) }

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
        defer { changes.changed() }
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
            for part in parts { try part.stored(message, db) }
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
    public func linkChanged(
        wearable: String,
        connected: Bool,
        helloName: String?,
        epoch: String?,
        head: Int? = nil,
        at time: Double
    ) async throws {
        defer { changes.changed() }
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
        defer { changes.changed() }
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

/// A message as the inbox stores it (and lists it back).
public struct InboxMessage: Sendable {
    public var wearable: String
    public var epoch: String
    public var seq: Int
    public var messageClass: LinkMessage.Class
    public var kind: MessageKind
    public var session: String?
    public var payload: Data
    public var createdAtMs: Int64
    public var receivedAt: Double
    /// A command reply's answer, settled in the command table with it (nil when listed back).
    public var answer: CommandAnswer?

    public init(
        wearable: String,
        epoch: String,
        seq: Int,
        messageClass: LinkMessage.Class,
        kind: MessageKind,
        session: String?,
        payload: Data,
        createdAtMs: Int64,
        receivedAt: Double,
        answer: CommandAnswer? = nil
    ) {
        self.wearable = wearable
        self.epoch = epoch
        self.seq = seq
        self.messageClass = messageClass
        self.kind = kind
        self.session = session
        self.payload = payload
        self.createdAtMs = createdAtMs
        self.receivedAt = receivedAt
        self.answer = answer
    }

    public var isSnapshot: Bool { messageClass == .snapshot }
}

public struct InboxError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
