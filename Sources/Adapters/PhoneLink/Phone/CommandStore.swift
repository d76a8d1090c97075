import Foundation
import GRDB
import PhoneLinkContract
import PhoneLinkWire
import SessionCore
import TrackCore

/// A command the CLI queued, as the server sends it.
public struct QueuedCommand: Sendable, Equatable {
    /// Where a command stands; the `command` table's `state` column holds the raw value.
    public enum State: String, Sendable, Equatable {
        case pending
        case answered
        /// Its deadline passed with no answer from the wearable.
        case notAnswered = "not_answered"
    }

    public var id: String
    public var wearable: String
    public var kind: SessionCommand
    public var activity: Activity?
    /// Wall-clock issue time: the CLI and the server share this machine's clock.
    public var issuedAt: Double
    public var validFor: Double
    public var deadline: Double
    public var state: State
    public var sends: Int
    /// A race's command: its race or partner event, as the wire's `Command` fields.
    public var body: [UInt8]?

    public init(
        id: String,
        wearable: String,
        kind: SessionCommand,
        activity: Activity?,
        issuedAt: Double,
        validFor: Double,
        deadline: Double,
        state: State = .pending,
        sends: Int = 0,
        body: [UInt8]? = nil
    ) {
        self.body = body
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

/// The final answer to a command: the wearable's ACK or FAIL, or none by the deadline.
public struct CommandAnswer: Sendable, Equatable {
    public enum Outcome: Sendable, Equatable {
        case ack
        case fail(RefusalCode)
        case notAnswered
    }

    public var id: String
    public var outcome: Outcome
    public var message: String
    public var session: String?

    public init(id: String, outcome: Outcome, message: String, session: String?) {
        self.id = id
        self.outcome = outcome
        self.message = message
        self.session = session
    }

    /// The wearable's reply, as the outbox delivered it.
    init(reply: Wearbridge_Link_V1_CommandReply) {
        self.init(
            id: reply.commandID,
            outcome: reply.ok ? .ack : .fail(RefusalCode(wire: reply.reason) ?? .unknown),
            message: reply.message,
            session: reply.session.isEmpty ? nil : reply.session
        )
    }

    /// The `command` row's `state`, `ok` and `reason` columns: the only place they are written.
    var columns: (state: QueuedCommand.State, ok: Bool, reason: String?) {
        switch outcome {
        case .ack: (.answered, true, nil)
        case .fail(let refusal): (.answered, false, refusal.rawValue)
        case .notAnswered: (.notAnswered, false, "notAnswered")
        }
    }

    /// The answer a settled `command` row holds (its columns read back).
    init(id: String, state: QueuedCommand.State, ok: Bool, reason: String?, message: String, session: String?) {
        let outcome: Outcome =
            switch state {
            case .notAnswered: .notAnswered
            case .pending, .answered: ok ? .ack : .fail(reason.flatMap(RefusalCode.init(rawValue:)) ?? .unknown)
            }
        self.init(id: id, outcome: outcome, message: message, session: session)
    }
}

/// The commands' part of the phone's database file (the `command` table): what the CLI, the
/// dashboard and the race queue, what the phone's loop sends and the wearable's answers. Its table
/// came with the inbox's first migration; every later change to it is a migration of its owner.
public struct CommandStore: Sendable {
    public let inbox: Inbox

    public init(_ inbox: Inbox) {
        self.inbox = inbox
    }

    private var pool: DatabasePool { inbox.pool }

    /// The table, in the file's first migration (with the link's).
    static func createTable(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE command (
                    id TEXT PRIMARY KEY NOT NULL, wearable TEXT NOT NULL, kind TEXT NOT NULL,
                    activity TEXT, issued_at REAL NOT NULL, valid_for REAL NOT NULL, deadline REAL NOT NULL,
                    state TEXT NOT NULL DEFAULT 'pending', sends INTEGER NOT NULL DEFAULT 0,
                    ok INTEGER, reason TEXT, message TEXT, session TEXT, answered_at REAL);
                """
        )
    }

    /// The CLI queues a command; the server sends it (and again every `retry_every`) until answered.
    public func queue(_ command: QueuedCommand) async throws {
        try await pool.write { db in try Self.insert(command, ifAbsent: false, db) }
    }

    /// The one place a command row is written; `ifAbsent`: an id already queued is left as it is
    /// (a race's commands, queued again by every round that sees them due).
    package static func insert(_ command: QueuedCommand, ifAbsent: Bool, _ db: Database) throws {
        try db.execute(
            sql: """
                INSERT \(ifAbsent ? "OR IGNORE " : "")INTO command
                    (id, wearable, kind, activity, issued_at, valid_for, deadline, body)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                command.id, command.wearable, command.kind.rawValue, command.activity?.rawValue, command.issuedAt,
                command.validFor, command.deadline, command.body.map { Data($0) },
            ]
        )
    }

    /// Commands still waiting for an answer, oldest first. A row this build cannot read (a kind
    /// from a newer CLI) is left pending, never sent half-understood.
    public func pending() throws -> [QueuedCommand] {
        try pool.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM command WHERE state = 'pending' ORDER BY issued_at, rowid")
                .compactMap {
                    row -> QueuedCommand? in
                    guard let kind = SessionCommand(rawValue: row["kind"]) else { return nil }
                    let activity: String? = row["activity"]
                    return QueuedCommand(
                        id: row["id"],
                        wearable: row["wearable"],
                        kind: kind,
                        activity: activity.flatMap(Activity.init(rawValue:)),
                        issuedAt: row["issued_at"],
                        validFor: row["valid_for"],
                        deadline: row["deadline"],
                        state: .pending,
                        sends: row["sends"],
                        body: (row["body"] as Data?).map { [UInt8]($0) }
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
    public func settle(_ answer: CommandAnswer, at time: Double) async throws {
        defer { inbox.changes.changed() }
        try await pool.write { db in
            try Self.answer(answer, at: time, db)
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

    static func answer(_ answer: CommandAnswer, at time: Double, _ db: Database) throws {
        let (state, ok, reason) = answer.columns
        try db.execute(
            sql: """
                UPDATE command SET state = ?, ok = ?, reason = ?, message = ?, session = ?, answered_at = ?
                WHERE id = ? AND state = 'pending'
                """,
            arguments: [state.rawValue, ok, reason, answer.message, answer.session, time, answer.id]
        )
    }

    /// The command's row as it stands (the CLI polls it): nil when there is none, its state, and
    /// its answer once settled.
    public func standing(_ id: String) throws -> (state: QueuedCommand.State, answer: CommandAnswer?)? {
        try pool.read { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT * FROM command WHERE id = ?", arguments: [id]) else {
                return nil
            }
            let state = QueuedCommand.State(rawValue: row["state"]) ?? .pending
            guard state != .pending else { return (state, nil) }
            return (
                state,
                CommandAnswer(
                    id: id,
                    state: state,
                    ok: row["ok"] ?? false,
                    reason: row["reason"],
                    message: row["message"] ?? "",
                    session: row["session"]
                )
            )
        }
    }

    /// A command's wearable and kind (a page reusing an id for another command is refused).
    public func identity(_ id: String) throws -> (wearable: String, kind: String)? {
        try pool.read { db in
            try Row.fetchOne(db, sql: "SELECT wearable, kind FROM command WHERE id = ?", arguments: [id])
                .map { ($0["wearable"], $0["kind"]) }
        }
    }
}
