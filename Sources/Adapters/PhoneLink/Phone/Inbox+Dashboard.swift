import Foundation
import GRDB
import PhoneLinkContract
import PhoneLinkMessages
import SwiftProtobuf

/// A wearable's link as the phone last recorded it.
public struct LinkRecord: Sendable, Equatable {
    public var wearable: String
    public var connected: Bool
    /// Wall-clock seconds (this machine's clock) of the last traffic.
    public var lastSeen: Double
    public var helloName: String?
    public var epoch: String?
    /// The outbox head the wearable's last hello named.
    public var helloHead: Int?
}

/// The newest snapshot a wearable sent, with its seq in the wearable's outbox.
public struct SnapshotRecord: Sendable {
    public var seq: Int
    public var epoch: String
    public var snapshot: Wearbridge_Link_V1_Snapshot
    public var receivedAt: Double
}

/// One backfilled row of a session, by its seq in the wearable's data log.
public struct BackfillRecord: Sendable {
    public var seq: Int
    public var row: Wearbridge_Link_V1_BackfillRow
}

/// A session as the history lists it: its start and, once ended, its totals.
public struct SessionRecord: Sendable {
    public var wearable: String
    public var session: String
    public var started: Wearbridge_Link_V1_SessionStarted?
    public var ended: Wearbridge_Link_V1_SessionEnded?
    /// pulling, complete, unknown, or nil when no backfill was asked for.
    public var backfill: BackfillState.Progress?
    public var backfillRows: Int
}

/// What the dashboard reads: each query one read transaction of the WAL, beside the link's writes.
extension Inbox {
    public func links() throws -> [LinkRecord] {
        try pool.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM link ORDER BY wearable").map(Self.linkRecord)
        }
    }

    public func link(wearable: String) throws -> LinkRecord? {
        try pool.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM link WHERE wearable = ?", arguments: [wearable])
                .map(Self.linkRecord)
        }
    }

    private static func linkRecord(_ row: Row) -> LinkRecord {
        LinkRecord(
            wearable: row["wearable"],
            connected: row["connected"],
            lastSeen: row["last_seen"],
            helloName: row["hello_name"],
            epoch: row["epoch"],
            helloHead: row["hello_head"]
        )
    }

    public func snapshot(wearable: String) throws -> SnapshotRecord? {
        try pool.read { db in
            guard
                let row = try Row.fetchOne(db, sql: "SELECT * FROM snapshot WHERE wearable = ?", arguments: [wearable])
            else { return nil }
            let payload: Data = row["payload"]
            return SnapshotRecord(
                seq: row["seq"],
                epoch: row["epoch"],
                snapshot: (try? Wearbridge_Link_V1_Payload(serializedBytes: payload).snapshot) ?? .init(),
                receivedAt: row["received_at"]
            )
        }
    }

    /// Messages of one wearable's epoch after `seq`, in order, at most `limit`.
    public func messages(wearable: String, epoch: String, after seq: Int, limit: Int) throws -> [InboxMessage] {
        try pool.read { db in
            try Row.fetchAll(
                db,
                sql: "SELECT * FROM inbox WHERE wearable = ? AND epoch = ? AND seq > ? ORDER BY seq LIMIT ?",
                arguments: [wearable, epoch, seq, limit]
            ).map(Self.message)
        }
    }

    /// The newest session a wearable started in `epoch`, its `session_started` seq, and whether it ended.
    public func newestSession(wearable: String, epoch: String) throws -> (session: String, seq: Int, ended: Bool)? {
        try pool.read { db in
            guard
                let row = try Row.fetchOne(
                    db,
                    sql: """
                        SELECT session, seq FROM inbox WHERE wearable = ? AND epoch = ? AND kind = 'session_started'
                        ORDER BY seq DESC LIMIT 1
                        """,
                    arguments: [wearable, epoch]
                )
            else { return nil }
            let session: String = row["session"]
            return (session, row["seq"], try Self.ended(session, db))
        }
    }

    /// True once the session's `session_ended` is in the inbox.
    public func sessionEnded(_ session: String) throws -> Bool {
        try pool.read { db in try Self.ended(session, db) }
    }

    private static func ended(_ session: String, _ db: Database) throws -> Bool {
        try Bool.fetchOne(
            db,
            sql: "SELECT 1 FROM inbox WHERE session = ? AND kind = 'session_ended' LIMIT 1",
            arguments: [session]
        ) ?? false
    }

    /// The newest strap battery notice of a wearable: percent and when it arrived.
    public func strapBattery(wearable: String) throws -> (percent: Int, receivedAt: Double)? {
        try pool.read { db in
            guard
                let row = try Row.fetchOne(
                    db,
                    sql: """
                        SELECT payload, received_at FROM inbox WHERE wearable = ? AND kind = 'strap_battery'
                        ORDER BY received_at DESC LIMIT 1
                        """,
                    arguments: [wearable]
                ),
                let notice = try? Wearbridge_Link_V1_Payload(serializedBytes: row["payload"] as Data).notice
            else { return nil }
            return (Int(notice.batteryPercent), row["received_at"])
        }
    }

    /// Every session the inbox holds, newest first, with its start, end and backfill.
    public func sessionRecords() throws -> [SessionRecord] {
        try pool.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT i.wearable, i.session, max(i.received_at) AS last,
                        (SELECT payload FROM inbox s WHERE s.session = i.session AND s.kind = 'session_started'
                            LIMIT 1) AS started,
                        (SELECT payload FROM inbox e WHERE e.session = i.session AND e.kind = 'session_ended'
                            LIMIT 1) AS ended,
                        b.done AS done, b.rows AS rows
                    FROM inbox i LEFT JOIN backfill b ON b.wearable = i.wearable AND b.session = i.session
                    WHERE i.session IS NOT NULL AND i.session != ''
                    GROUP BY i.wearable, i.session ORDER BY last DESC
                    """
            ).map { row in
                let done: Int? = row["done"]
                return SessionRecord(
                    wearable: row["wearable"],
                    session: row["session"],
                    started: (row["started"] as Data?).flatMap {
                        try? Wearbridge_Link_V1_Payload(serializedBytes: $0).sessionStarted
                    },
                    ended: (row["ended"] as Data?).flatMap {
                        try? Wearbridge_Link_V1_Payload(serializedBytes: $0).sessionEnded
                    },
                    backfill: done.map(BackfillState.Progress.init(done:)),
                    backfillRows: row["rows"] ?? 0
                )
            }
        }
    }
}
