import Foundation
import GRDB
import PhoneLinkContract
import PhoneLinkMessages
import PhoneLinkWire
import SessionCore
import SwiftProtobuf

extension InboxMessage {
    /// The payload as protobuf's JSON mapping (what a phone app would see).
    public var payloadJSON: String {
        (try? Wearbridge_Link_V1_Payload(serializedBytes: payload).jsonString()) ?? "{}"
    }
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

extension Inbox {
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
            try Row.fetchAll(db, sql: "SELECT * FROM link ORDER BY wearable").map { row in
                let wearable: String = row["wearable"]
                let lastSeen: Double = row["last_seen"]
                let connected: Bool = row["connected"]
                let age = now - lastSeen
                let link = PhoneLinkState.judged(connected: connected, silence: age, staleAfter: staleAfter)
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
                        arguments: [wearable, row["epoch"] as String?]
                    ) ?? 0
                return WearableStatus(
                    wearable: wearable,
                    helloName: row["hello_name"],
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

    /// Sessions the inbox has heard of, newest first: (wearable, session, kinds seen, last kind).
    public func sessions() throws -> [(
        wearable: String, session: String, started: Int64?, state: String, messages: Int
    )] {
        try pool.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT wearable, session, count(*) AS n, max(seq) AS last,
                        (SELECT kind FROM inbox i2 WHERE i2.wearable = i.wearable AND i2.session = i.session
                            AND i2.kind LIKE 'session_%' ORDER BY seq DESC LIMIT 1) AS state,
                        (SELECT created_at_ms FROM inbox i3 WHERE i3.wearable = i.wearable AND i3.session = i.session
                            AND i3.kind = 'session_started' LIMIT 1) AS started
                    FROM inbox i WHERE session IS NOT NULL GROUP BY wearable, session ORDER BY max(received_at) DESC
                    """
            ).map { ($0["wearable"], $0["session"], $0["started"], $0["state"] ?? "unknown", $0["n"]) }
        }
    }
}
