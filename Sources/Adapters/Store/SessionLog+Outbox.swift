import Foundation
import GRDB
import PhoneLinkContract
import PhoneLinkMessages
import PhoneLinkWire
import SessionCore
import SwiftProtobuf

/// One message of the outbox as stored.
public struct OutboxRecord: Sendable, Equatable {
    public enum State: String, Sendable {
        case pending
        case delivered
    }

    public var seq: Int
    public var messageClass: LinkMessage.Class
    public var kind: MessageKind
    public var sessionID: String?
    /// `Wearbridge_Link_V1_Payload`, serialized.
    public var payload: Data
    public var createdAt: Double
    public var state: State
    public var deliveredAt: Double?
}

/// The outbox's figures for `status`.
public struct OutboxDepth: Sendable, Equatable {
    public var pending: Int
    public var oldestCriticalAt: Double?
    public var noticesEvicted: Int
}

extension SessionLog {
    /// Undelivered notices kept at most; past it the oldest go first, counted.
    public static let noticeBound = 1000

    static func insertOutbox(_ message: LinkMessage, createdAt: Double, _ db: Database) throws {
        let payload = try message.payload.serializedBytes() as Data
        let messageClass = message.messageClass
        if messageClass == .snapshot {
            // Only the newest snapshot is worth sending: the link carries the present.
            try db.executeCached(sql: "DELETE FROM outbox WHERE class = 'snapshot'")
        }
        try db.executeCached(
            sql: "INSERT INTO outbox (class, kind, session_id, payload, created_at) VALUES (?, ?, ?, ?, ?)",
            arguments: [messageClass.rawValue, message.kind.rawValue, message.sessionID, payload, createdAt]
        )
        guard messageClass == .notice else { return }
        let pending =
            try Int.fetchOne(
                db.cachedStatement(sql: "SELECT count(*) FROM outbox WHERE class = 'notice' AND state = 'pending'")
            ) ?? 0
        guard pending > noticeBound else { return }
        let excess = pending - noticeBound
        try db.executeCached(
            sql: """
                DELETE FROM outbox WHERE seq IN (
                    SELECT seq FROM outbox WHERE class = 'notice' AND state = 'pending' ORDER BY seq LIMIT ?)
                """,
            arguments: [excess]
        )
        try db.executeCached(
            sql: "UPDATE link_meta SET value = CAST(value AS INTEGER) + ? WHERE key = 'notices_evicted'",
            arguments: [excess]
        )
    }

    /// This log's outbox epoch: sequence numbers are unique within it.
    public func outboxEpoch() throws -> String {
        try reader.read { db in
            try String.fetchOne(db.cachedStatement(sql: "SELECT value FROM link_meta WHERE key = 'epoch'")) ?? ""
        }
    }

    /// The highest sequence number ever written (0 for none).
    public func outboxHead() throws -> Int {
        try reader.read { db in
            try Int.fetchOne(db.cachedStatement(sql: "SELECT seq FROM sqlite_sequence WHERE name = 'outbox'")) ?? 0
        }
    }

    /// Critical and notice messages after `seq`, delivered or not (the phone's mark decides), in order.
    public func outboxMessages(after seq: Int, limit: Int) throws -> [OutboxRecord] {
        try reader.read { db in
            try Row.fetchAll(
                db.cachedStatement(
                    sql: "SELECT * FROM outbox WHERE seq > ? AND class != 'snapshot' ORDER BY seq LIMIT ?"
                ),
                arguments: [seq, limit]
            ).compactMap(OutboxRecord.init)
        }
    }

    /// The newest snapshot, if one is stored.
    public func newestSnapshot() throws -> OutboxRecord? {
        try reader.read { db in
            try Row.fetchOne(
                db.cachedStatement(sql: "SELECT * FROM outbox WHERE class = 'snapshot' ORDER BY seq DESC LIMIT 1")
            )
            .flatMap(OutboxRecord.init)
        }
    }

    /// The phone has committed everything through `through` and the snapshot `snapshot`.
    ///
    /// Committed without waiting for the card (`synchronous = NORMAL` for this one transaction,
    /// FULL again before anything else runs on the writer): the phone's mark, not this one, decides
    /// what is resent, so a mark lost to a power cut costs a resend the phone acks without storing,
    /// and the next batch's durable commit syncs it anyway. One fsync a second fewer with the link up.
    public func markDelivered(through: Int, snapshot: Int, at time: Double) async throws {
        guard let writer else { throw StoreError.directory(path: path, reason: "open read-only") }
        try await writer.writeWithoutTransaction { db in
            try db.executeCached(sql: "PRAGMA synchronous = NORMAL")
            let marked = Result {
                try db.inTransaction {
                    try db.executeCached(
                        sql: """
                            UPDATE outbox SET state = 'delivered', delivered_at = ?
                            WHERE state = 'pending' AND ((class != 'snapshot' AND seq <= ?) OR (class = 'snapshot' AND seq <= ?))
                            """,
                        arguments: [time, through, snapshot]
                    )
                    return .commit
                }
            }
            try db.executeCached(sql: Self.durableCommits)
            try marked.get()
        }
    }

    public func outboxDepth() throws -> OutboxDepth {
        try reader.read { db in
            let pending =
                try Int.fetchOne(db.cachedStatement(sql: "SELECT count(*) FROM outbox WHERE state = 'pending'")) ?? 0
            let oldest = try Double.fetchOne(
                db.cachedStatement(
                    sql: "SELECT min(created_at) FROM outbox WHERE state = 'pending' AND class = 'critical'"
                )
            )
            let evicted =
                try String.fetchOne(
                    db.cachedStatement(sql: "SELECT value FROM link_meta WHERE key = 'notices_evicted'")
                ).flatMap {
                    Int($0)
                } ?? 0
            return OutboxDepth(pending: pending, oldestCriticalAt: oldest, noticesEvicted: evicted)
        }
    }

    /// Every message, oldest first (`wearbridge outbox`); empty for a log from before the outbox.
    public func outbox(limit: Int = .max) throws -> [OutboxRecord] {
        try reader.read { db in
            guard try db.tableExists("outbox") else { return [] }
            return try Row.fetchAll(db, sql: "SELECT * FROM outbox ORDER BY seq LIMIT ?", arguments: [limit])
                .compactMap(OutboxRecord.init)
        }
    }
}

extension OutboxRecord {
    init?(_ row: Row) {
        guard let messageClass = LinkMessage.Class(rawValue: row["class"]),
            let kind = MessageKind(rawValue: row["kind"]),
            let state = State(rawValue: row["state"])
        else { return nil }
        seq = row["seq"]
        self.messageClass = messageClass
        self.kind = kind
        sessionID = row["session_id"]
        payload = row["payload"]
        createdAt = row["created_at"]
        self.state = state
        deliveredAt = row["delivered_at"]
    }
}
