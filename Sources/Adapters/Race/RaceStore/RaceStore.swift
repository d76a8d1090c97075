import Foundation
import GRDB
import PhoneLinkContract
import PhoneLinkMessages
import PhoneRaceCore
import PhoneServer
import RelayContract

/// The phone's half of exactly once through the relay. A wearable message that belongs to a race
/// is queued toward the relay in the same transaction that stores it in the inbox, numbered by the
/// race's own sequence; the pump deletes a row only after the relay committed it (`ON CONFLICT DO
/// NOTHING` makes a resend after a crash harmless). The partner's messages and the relay's events
/// are stored with the marks that say how far they were read, in one transaction, so a restart
/// resumes without a gap or a repeat.
///
/// Its tables live in the inbox's file (an `InboxPart`), so that a wearable message and what it
/// queues toward the relay commit together; the race's orders to the wearable are commands in the
/// inbox's command table.
public struct RaceStore: Sendable {
    public let inbox: Inbox

    public init(_ inbox: Inbox) { self.inbox = inbox }

    var pool: DatabasePool { inbox.pool }
}

extension RaceStore: InboxPart {
    /// The race's tables, in one place: the relay's queue and marks, then the race orders.
    public static func registerMigrations(_ migrator: inout DatabaseMigrator) {
        registerRelay(&migrator)
        registerRaceOrders(&migrator)
    }

    /// The routes shared after a race.
    public static func registerLaterMigrations(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v8-race-routes", migrate: createRouteTable)
        migrator.registerMigration("v9-race-courses", migrate: addCourseColumns)
    }

    public static func stored(_ message: InboxMessage, _ db: Database) throws {
        try queueForRelay(message, db)
    }
}

extension RaceStore {
    static func registerRelay(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v3-relay") { db in
            try db.execute(
                sql: """
                    CREATE TABLE relay_race (
                        run TEXT PRIMARY KEY NOT NULL, wearable TEXT NOT NULL, partner TEXT NOT NULL,
                        start_at REAL NOT NULL, state TEXT NOT NULL, session TEXT,
                        next_seq INTEGER NOT NULL DEFAULT 1, message_mark INTEGER NOT NULL DEFAULT 0,
                        event_mark INTEGER NOT NULL DEFAULT 0, started_reported INTEGER NOT NULL DEFAULT 0);
                    CREATE TABLE relay_outbox (
                        run TEXT NOT NULL, seq INTEGER NOT NULL, class TEXT NOT NULL, kind TEXT NOT NULL,
                        distance_m REAL, elapsed_s REAL, moving_s REAL, paused INTEGER NOT NULL DEFAULT 0,
                        body TEXT NOT NULL DEFAULT '{}', queued_at REAL NOT NULL,
                        PRIMARY KEY (run, seq)) WITHOUT ROWID;
                    CREATE TABLE partner_inbox (
                        run TEXT NOT NULL, source TEXT NOT NULL, key INTEGER NOT NULL, runner TEXT,
                        class TEXT NOT NULL, kind TEXT NOT NULL, distance_m REAL, elapsed_s REAL,
                        paused INTEGER NOT NULL DEFAULT 0, body TEXT NOT NULL, at REAL NOT NULL, received_at REAL NOT NULL,
                        PRIMARY KEY (run, source, key)) WITHOUT ROWID;
                    CREATE TABLE relay_refusal (
                        run TEXT NOT NULL, seq INTEGER NOT NULL, kind TEXT NOT NULL, code TEXT NOT NULL,
                        message TEXT NOT NULL, at REAL NOT NULL);
                    """
            )
        }
    }

    /// A race this phone's runner is in, as the pump last read it from the relay.
    public struct RelayRace: Sendable, Equatable {
        public var run: String
        public var wearable: String
        public var partner: String
        /// The agreed start instant (Unix s, the relay's clock).
        public var startAt: Double
        public var state: RelayRun.State
        /// The wearable's session that runs this race, once it started.
        public var session: String?
        public var messageMark: Int64
        public var eventMark: Int64
        public var startReported: Bool
        /// The relay's activity (run, walk, ride) and distance, for the wearable's order.
        public var activity: String?
        public var distance: Double?
        /// A race on a course: the name the phone and the wearable keep it under, and its length.
        public var course: String? = nil
        public var courseLength: Double? = nil
        /// Whether the relay was asked for the race's course (once, when the race is first held).
        public var courseChecked = false
    }

    /// Records (or updates the state of) a race the relay says this runner is in.
    public func bindRace(
        run: String,
        wearable: String,
        partner: String,
        startAt: Double,
        state: RelayRun.State,
        activity: String? = nil,
        distance: Double? = nil
    ) async throws {
        try await pool.write { db in
            try db.execute(
                sql: """
                    INSERT INTO relay_race (run, wearable, partner, start_at, state, activity, distance_m)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT (run) DO UPDATE SET state = excluded.state, start_at = excluded.start_at
                    """,
                arguments: [run, wearable, partner, startAt, state.rawValue, activity, distance]
            )
        }
    }

    public func relayRaces() throws -> [RelayRace] {
        try pool.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM relay_race ORDER BY start_at").map(Self.race)
        }
    }

    /// One race held, by its run, as it stands now (its marks fresh); nil if the phone holds none.
    public func relayRace(run: String) throws -> RelayRace? {
        try pool.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM relay_race WHERE run = ?", arguments: [run]).map(Self.race)
        }
    }

    /// The one codec of the race's text columns that hold an enum (`relay_race.state`, the `class`
    /// of the relay outbox and the partner inbox, `relay_outbox.kind`, `partner_inbox.source`): a
    /// value that is not one of the type's is an error naming the table and column, never a crash.
    static func decode<Value: RawRepresentable>(_ row: Row, _ table: String, _ column: String) throws -> Value
    where Value.RawValue == String {
        let text: String = row[column]
        guard let value = Value(rawValue: text) else {
            throw InboxError("\(table).\(column) is '\(text)', not a \(String(reflecting: Value.self))")
        }
        return value
    }

    static func race(_ row: Row) throws -> RelayRace {
        RelayRace(
            run: row["run"],
            wearable: row["wearable"],
            partner: row["partner"],
            startAt: row["start_at"],
            state: try decode(row, "relay_race", "state"),
            session: row["session"],
            messageMark: row["message_mark"],
            eventMark: row["event_mark"],
            startReported: row["started_reported"],
            activity: row["activity"],
            distance: row["distance_m"],
            course: row["course"],
            courseLength: row["course_length_m"],
            courseChecked: row["course_checked"]
        )
    }

    /// A row queued toward the relay.
    public struct RelayOutboxRow: Sendable, Equatable {
        public var run: String
        public var seq: Int64
        public var messageClass: RelayMessage.Class
        public var kind: RelayMessage.Kind
        public var distance: Double?
        public var elapsed: Double?
        public var moving: Double?
        public var paused: Bool
        public var body: String
        /// A race on a course: the distance along it (m).
        public var course: Double?
    }

    /// What is queued for `run`, in order.
    public func relayOutbox(run: String) throws -> [RelayOutboxRow] {
        try pool.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM relay_outbox WHERE run = ? ORDER BY seq", arguments: [run]).map {
                RelayOutboxRow(
                    run: $0["run"],
                    seq: $0["seq"],
                    messageClass: try Self.decode($0, "relay_outbox", "class"),
                    kind: try Self.decode($0, "relay_outbox", "kind"),
                    distance: $0["distance_m"],
                    elapsed: $0["elapsed_s"],
                    moving: $0["moving_s"],
                    paused: $0["paused"],
                    body: $0["body"],
                    course: $0["course_m"]
                )
            }
        }
    }

    /// The relay committed the row (or refused it for good: `refusal` is logged with it).
    public func relayDone(
        run: String,
        seq: Int64,
        refusal: (code: RelayCode, message: String)? = nil,
        at time: Double
    )
        async throws
    {
        try await pool.write { db in
            if let refusal {
                try db.execute(
                    sql: """
                        INSERT INTO relay_refusal (run, seq, kind, code, message, at)
                        SELECT run, seq, kind, ?, ?, ? FROM relay_outbox WHERE run = ? AND seq = ?
                        """,
                    arguments: [refusal.code.rawValue, refusal.message, time, run, seq]
                )
            }
            try db.execute(sql: "DELETE FROM relay_outbox WHERE run = ? AND seq = ?", arguments: [run, seq])
        }
    }

    public func relayStartReported(run: String) async throws {
        try await pool.write { db in
            try db.execute(sql: "UPDATE relay_race SET started_reported = 1 WHERE run = ?", arguments: [run])
        }
    }

    /// Refusals the relay gave, newest last (for `race status` and the tests).
    public func relayRefusals() throws -> [(run: String, seq: Int64, kind: String, code: String, message: String)] {
        try pool.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM relay_refusal ORDER BY rowid").map {
                ($0["run"], $0["seq"], $0["kind"], $0["code"], $0["message"])
            }
        }
    }

    /// One item read from the relay about the partner: a message of theirs (`message`, keyed by their
    /// seq) or a relay event (`event`, keyed by its id).
    public struct PartnerItem: Sendable, Equatable {
        public var source: PartnerNews.Source
        public var key: Int64
        public var runner: String?
        public var messageClass: RelayMessage.Class
        public var kind: String
        public var distance: Double?
        public var elapsed: Double?
        public var paused: Bool
        public var body: String
        public var at: Double
        /// A race on a course: their distance along it (m).
        public var course: Double?

        public init(
            source: PartnerNews.Source,
            key: Int64,
            runner: String?,
            messageClass: RelayMessage.Class,
            kind: String,
            distance: Double?,
            elapsed: Double?,
            paused: Bool,
            body: String,
            at: Double,
            course: Double? = nil
        ) {
            self.source = source
            self.key = key
            self.runner = runner
            self.messageClass = messageClass
            self.kind = kind
            self.distance = distance
            self.elapsed = elapsed
            self.paused = paused
            self.body = body
            self.at = at
            self.course = course
        }
    }

    /// Stores what was read from the relay and moves the marks past it, in one transaction. The
    /// partner's newest snapshot replaces the one held (newest wins) without moving the message mark.
    public func commitPartner(run: String, items: [PartnerItem], receivedAt: Double) async throws {
        try await pool.write { db in
            let partner = try String.fetchOne(db, sql: "SELECT partner FROM relay_race WHERE run = ?", arguments: [run])
            for item in items {
                if item.messageClass == .snapshot {
                    let newest =
                        try Int64.fetchOne(
                            db,
                            sql: """
                                SELECT max(key) FROM partner_inbox WHERE run = ? AND source = 'message' AND class = 'snapshot'
                                """,
                            arguments: [run]
                        ) ?? 0
                    guard item.key > newest else { continue }
                    try db.execute(
                        sql: "DELETE FROM partner_inbox WHERE run = ? AND source = 'message' AND class = 'snapshot'",
                        arguments: [run]
                    )
                }
                try db.execute(
                    sql: """
                        INSERT OR IGNORE INTO partner_inbox (run, source, key, runner, class, kind, distance_m, elapsed_s,
                            paused, body, at, received_at, course_m) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                        """,
                    arguments: [
                        run, item.source.rawValue, item.key, item.runner, item.messageClass.rawValue, item.kind,
                        item.distance,
                        item.elapsed, item.paused, item.body, item.at, receivedAt, item.course,
                    ]
                )
                if db.changesCount > 0, let partner,
                    let news = PartnerNews(source: item.source, kind: item.kind, runner: item.runner, partner: partner)
                {
                    try Self.queuePartnerEvent(news, item: item, run: run, at: receivedAt, db)
                }
                if item.source == .event {
                    try db.execute(
                        sql: "UPDATE relay_race SET event_mark = max(event_mark, ?) WHERE run = ?",
                        arguments: [item.key, run]
                    )
                } else if item.messageClass != .snapshot {
                    try db.execute(
                        sql: "UPDATE relay_race SET message_mark = max(message_mark, ?) WHERE run = ?",
                        arguments: [item.key, run]
                    )
                }
            }
        }
        inbox.partnerVersion.add(1, ordering: .relaxed)
        inbox.changes.changed()
    }

    /// Moves each time something about a partner was stored: a reader re-reads only when it moved.
    public var partnerChanges: Int { inbox.partnerVersion.load(ordering: .relaxed) }

    /// Everything read about the partner of `run`, in the order it was stored.
    public func partnerItems(run: String) throws -> [PartnerItem] {
        try pool.read { db in
            try Row.fetchAll(
                db,
                sql: "SELECT * FROM partner_inbox WHERE run = ? ORDER BY source, key",
                arguments: [run]
            ).map {
                PartnerItem(
                    source: try Self.decode($0, "partner_inbox", "source"),
                    key: $0["key"],
                    runner: $0["runner"],
                    messageClass: try Self.decode($0, "partner_inbox", "class"),
                    kind: $0["kind"],
                    distance: $0["distance_m"],
                    elapsed: $0["elapsed_s"],
                    paused: $0["paused"],
                    body: $0["body"],
                    at: $0["at"],
                    course: $0["course_m"]
                )
            }
        }
    }

    /// Queues a stored wearable message toward the relay when it belongs to a race (called inside
    /// `commit`'s transaction). A session that starts near a race's start instant becomes that
    /// race's session; a queued snapshot replaces any older one not yet sent (newest wins).
    static func queueForRelay(_ message: InboxMessage, _ db: Database) throws {
        guard let session = message.session else { return }
        guard
            let race = try Row.fetchOne(
                db,
                sql: """
                    SELECT run, session, start_at, next_seq, course_length_m FROM relay_race
                    WHERE wearable = ? AND state = ? AND (session = ? OR (session IS NULL AND run = ?))
                    ORDER BY start_at LIMIT 1
                    """,
                arguments: [message.wearable, RelayRun.State.accepted.rawValue, session, Self.raceRun(message.payload)]
            )
        else { return }
        let run: String = race["run"]
        var seq: Int64 = race["next_seq"]
        let payload = try Wearbridge_Link_V1_Payload(serializedBytes: message.payload)
        var row:
            (
                class: RelayMessage.Class, kind: RelayMessage.Kind, distance: Double?, elapsed: Double?,
                moving: Double?, paused: Bool,
                body: String
            )
        // On a course: the wearable's distance to go, as the distance along it the relay compares.
        var along: Double?
        switch payload.kind {
        case .raceStarted(let started):
            // The wearable started this race's session at the agreed instant, by its own race clock.
            guard race["session"] as String? == nil else { return }
            try db.execute(sql: "UPDATE relay_race SET session = ? WHERE run = ?", arguments: [session, run])
            row = (
                .critical, .started, nil, nil, nil, false,
                #"{"start_offset_ms":\#(started.startOffsetMs),"clock":"\#(started.clock == "gps" ? "gps" : "system")"}"#
            )
        case .snapshot(let snapshot):
            let paused = snapshot.state == .paused || snapshot.state == .autoPaused
            // Their GPS time lets the partner compare at equal time since the common start.
            let gpsTime = snapshot.gpsTimeMs > 0 ? #"{"gps_time":\#(Double(snapshot.gpsTimeMs) / 1000)}"# : "{}"
            row = (
                .snapshot, .snapshot, Double(snapshot.distanceDm) / 10, Double(snapshot.elapsedS),
                Double(snapshot.movingS), paused, gpsTime
            )
            if let length = race["course_length_m"] as Double?, snapshot.hasCourse {
                along = Self.along(snapshot.course, length: length)
            }
            try db.execute(
                sql: "DELETE FROM relay_outbox WHERE run = ? AND class = 'snapshot'",
                arguments: [run]
            )
        case .sessionPaused(let paused):
            row = (
                .critical, .paused, Double(paused.distanceDm) / 10, Double(paused.elapsedS), nil, true,
                #"{"auto":\#(paused.auto)}"#
            )
        case .sessionResumed(let resumed):
            row = (
                .critical, .resumed, Double(resumed.distanceDm) / 10, Double(resumed.elapsedS), nil, false,
                #"{"auto":\#(resumed.auto)}"#
            )
        case .split(let split):
            row = (
                .critical, .split, split.distanceM, nil, nil, false,
                #"{"index":\#(split.index),"duration_s":\#(split.durationS)}"#
            )
        case .sessionEnded(let ended):
            // The final figures from the wearable's own data log: the pump submits them with relay.finish,
            // on a course with the distance along it where the session ended.
            row = (.critical, .finished, ended.distanceM, ended.elapsedS, ended.movingS, false, "{}")
            if let length = race["course_length_m"] as Double?, ended.hasCourse {
                along = Self.along(ended.course, length: length)
            }
        default:
            return
        }
        try db.execute(
            sql: """
                INSERT INTO relay_outbox (run, seq, class, kind, distance_m, elapsed_s, moving_s, paused, body, queued_at,
                    course_m)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                run, seq, row.class.rawValue, row.kind.rawValue, row.distance, row.elapsed, row.moving, row.paused,
                row.body,
                message.receivedAt, along,
            ]
        )
        seq += 1
        try db.execute(sql: "UPDATE relay_race SET next_seq = ? WHERE run = ?", arguments: [seq, run])
    }

    /// Where a wearable stands on a course `length` m long, by the figures it sent: the length less
    /// its distance to go (what the relay compares as `course_m`).
    public static func along(_ figures: Wearbridge_Link_V1_CourseFigures, length: Double) -> Double {
        max(0, length - Double(figures.toGoDm) / 10)
    }

    /// The run a wearable message names (only `race_started` does).
    static func raceRun(_ payload: Data) -> String? {
        guard let decoded = try? Wearbridge_Link_V1_Payload(serializedBytes: payload),
            case .raceStarted(let started) = decoded.kind
        else { return nil }
        return started.run
    }
}
