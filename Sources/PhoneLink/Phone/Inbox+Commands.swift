import Foundation
import GRDB

/// A command the CLI queued, as the server sends it.
public struct QueuedCommand: Sendable, Equatable {
    public var id: String
    public var wearable: String
    public var kind: String
    public var activity: String?
    /// Wall-clock issue time: the CLI and the server share this machine's clock.
    public var issuedAt: Double
    public var validFor: Double
    public var deadline: Double
    public var state: String
    public var sends: Int

    public init(
        id: String,
        wearable: String,
        kind: String,
        activity: String?,
        issuedAt: Double,
        validFor: Double,
        deadline: Double,
        state: String = "pending",
        sends: Int = 0
    ) {
        self.id = id
        self.wearable = wearable
        self.kind = kind
        self.activity = activity
        self.issuedAt = issuedAt
        self.validFor = validFor
        self.deadline = deadline
        self.state = state
        self.sends = sends
    }
}

/// The wearable's answer to a command.
public struct CommandAnswer: Sendable, Equatable {
    public var id: String
    public var ok: Bool
    public var reason: String?
    public var message: String
    public var session: String?

    public init(id: String, ok: Bool, reason: String?, message: String, session: String?) {
        self.id = id
        self.ok = ok
        self.reason = reason
        self.message = message
        self.session = session
    }
}

extension Inbox {
    /// The CLI queues a command; the server sends it (and again every `retry_every`) until answered.
    public func queue(_ command: QueuedCommand) async throws {
        try await pool.write { db in
            try db.execute(
                sql: """
                    INSERT INTO command (id, wearable, kind, activity, issued_at, valid_for, deadline)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    command.id, command.wearable, command.kind, command.activity, command.issuedAt, command.validFor,
                    command.deadline,
                ]
            )
        }
    }

    public func pendingCommands() throws -> [QueuedCommand] {
        try pool.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM command WHERE state = 'pending' ORDER BY issued_at").map {
                QueuedCommand(
                    id: $0["id"],
                    wearable: $0["wearable"],
                    kind: $0["kind"],
                    activity: $0["activity"],
                    issuedAt: $0["issued_at"],
                    validFor: $0["valid_for"],
                    deadline: $0["deadline"],
                    state: $0["state"],
                    sends: $0["sends"]
                )
            }
        }
    }

    public func sent(_ id: String) async throws {
        try await pool.write { db in
            try db.execute(sql: "UPDATE command SET sends = sends + 1 WHERE id = ?", arguments: [id])
        }
    }

    /// A final answer that is not in the inbox (FAIL INVALID at once, or not answered by the deadline).
    public func settle(_ answer: CommandAnswer, state: String, at time: Double) async throws {
        try await pool.write { db in
            try Self.answer(answer, state: state, at: time, db)
        }
    }

    /// Busy: not final; the message is kept for the CLI, the command stays pending.
    public func busy(_ id: String, message: String) async throws {
        try await pool.write { db in
            try db.execute(
                sql: "UPDATE command SET message = ? WHERE id = ? AND state = 'pending'",
                arguments: ["busy: " + message, id]
            )
        }
    }

    static func answer(_ answer: CommandAnswer, state: String = "answered", at time: Double, _ db: Database) throws {
        try db.execute(
            sql: """
                UPDATE command SET state = ?, ok = ?, reason = ?, message = ?, session = ?, answered_at = ?
                WHERE id = ? AND state = 'pending'
                """,
            arguments: [state, answer.ok, answer.reason, answer.message, answer.session, time, answer.id]
        )
    }

    /// The command's row as it stands (the CLI polls it).
    public func command(_ id: String) throws -> (state: String, answer: CommandAnswer?)? {
        try pool.read { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT * FROM command WHERE id = ?", arguments: [id]) else {
                return nil
            }
            let state: String = row["state"]
            guard state != "pending" else { return (state, nil) }
            return (
                state,
                CommandAnswer(
                    id: id,
                    ok: row["ok"] ?? false,
                    reason: row["reason"],
                    message: row["message"] ?? "",
                    session: row["session"]
                )
            )
        }
    }
}
