import Foundation
import GRDB
import PhoneLinkContract
import PhoneLinkMessages
import PhoneLinkWire
import SessionCore
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

/// A wearable as `status` shows it.
public struct WearableStatus: Sendable {
    public var wearable: String
    public var helloName: String?
    public var link: PhoneLinkState
    public var lastSeenAge: Double?
    public var inboxCount: Int
    public var mark: Int
    public var snapshot: Wearbridge_Link_V1_Snapshot?
    public var snapshotAge: Double?
}

extension InboxMessage {
    /// The payload as protobuf's JSON mapping (what a phone app would see).
    public var payloadJSON: String {
        (try? Wearbridge_Link_V1_Payload(serializedBytes: payload).jsonString()) ?? "{}"
    }
}

/// What the CLI and the dashboard read of the link's inbox: each query one read transaction of the
/// WAL, beside the link's writes.
extension LinkStore {
    public func records() throws -> [LinkRecord] {
        try pool.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM link ORDER BY wearable").map(Self.linkRecord)
        }
    }

    public func record(wearable: String) throws -> LinkRecord? {
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
                        SELECT session, seq FROM inbox WHERE wearable = ? AND epoch = ? AND kind = ?
                        ORDER BY seq DESC LIMIT 1
                        """,
                    arguments: [wearable, epoch, MessageKind.sessionStarted.rawValue]
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
            sql: "SELECT 1 FROM inbox WHERE session = ? AND kind = ? LIMIT 1",
            arguments: [session, MessageKind.sessionEnded.rawValue]
        ) ?? false
    }

    /// The newest strap battery notice of a wearable: percent and when it arrived.
    public func strapBattery(wearable: String) throws -> (percent: Int, receivedAt: Double)? {
        try pool.read { db in
            guard
                let row = try Row.fetchOne(
                    db,
                    sql: """
                        SELECT payload, received_at FROM inbox WHERE wearable = ? AND kind = ?
                        ORDER BY received_at DESC LIMIT 1
                        """,
                    arguments: [wearable, MessageKind.strapBattery.rawValue]
                ),
                let notice = try? Wearbridge_Link_V1_Payload(serializedBytes: row["payload"] as Data).notice
            else { return nil }
            return (Int(notice.batteryPercent), row["received_at"])
        }
    }

    /// The stored messages, as `inbox` and `show` print them.
    public func entries(wearable: String? = nil, session: String? = nil) throws -> [InboxMessage] {
        try pool.read { db in
            var sql = "SELECT * FROM inbox WHERE 1"
            var arguments: StatementArguments = []
            if let wearable {
                sql += " AND wearable = ?"
                _ = arguments.append(contentsOf: [wearable])
            }
            if let session {
                sql += " AND session = ?"
                _ = arguments.append(contentsOf: [session])
            }
            sql += " ORDER BY wearable, epoch, seq"
            return try Row.fetchAll(db, sql: sql, arguments: arguments).map(Self.message)
        }
    }

    /// An `inbox` row as the message it stores.
    static func message(_ row: Row) -> InboxMessage {
        InboxMessage(
            wearable: row["wearable"],
            epoch: row["epoch"],
            seq: row["seq"],
            messageClass: LinkMessage.Class(rawValue: row["class"]) ?? .notice,
            kind: MessageKind(rawValue: row["kind"]) ?? .unknown,
            session: row["session"],
            payload: row["payload"],
            createdAtMs: row["created_at_ms"] ?? 0,
            receivedAt: row["received_at"]
        )
    }

    /// Per wearable: link (live, stale, lost), the last snapshot and its age.
    public func status(now: Double, staleAfter: Double) throws -> [WearableStatus] {
        try pool.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM link ORDER BY wearable").map(Self.linkRecord).map { record in
                let wearable = record.wearable
                let age = now - record.lastSeen
                let link = PhoneLinkState.judged(connected: record.connected, silence: age, staleAfter: staleAfter)
                let snapshotRow = try Row.fetchOne(
                    db,
                    sql: "SELECT payload, received_at FROM snapshot WHERE wearable = ?",
                    arguments: [wearable]
                )
                let snapshot = try snapshotRow.map { row -> Wearbridge_Link_V1_Snapshot in
                    let payload: Data = row["payload"]
                    return try Wearbridge_Link_V1_Payload(serializedBytes: payload).snapshot
                }
                let count =
                    try Int.fetchOne(db, sql: "SELECT count(*) FROM inbox WHERE wearable = ?", arguments: [wearable])
                    ?? 0
                let mark =
                    try Int.fetchOne(
                        db,
                        sql: "SELECT mark FROM mark WHERE wearable = ? AND epoch = ?",
                        arguments: [wearable, record.epoch]
                    ) ?? 0
                return WearableStatus(
                    wearable: wearable,
                    helloName: record.helloName,
                    link: link,
                    lastSeenAge: age,
                    inboxCount: count,
                    mark: mark,
                    snapshot: snapshot,
                    snapshotAge: snapshotRow.map { now - ($0["received_at"] as Double) }
                )
            }
        }
    }
}
