import Course
import Foundation
import GRDB
import PhoneLinkContract
import PhoneLinkWire
import SessionCore

/// A course the phone keeps: as the wearable gets it (simplified, serialized), with where it came
/// from.
public struct PhoneCourse: Sendable, Equatable {
    public var course: Course
    /// This version's id: its parts' commands are named by it.
    public var id: String
    public var bytes: [UInt8]
    /// The file it was read from, and how many points that had.
    public var source: String
    public var filePoints: Int
    public var addedAt: Double

    /// `bytes`: the course serialized, when it has been (else it is serialized here).
    public init(course: Course, id: String, bytes: [UInt8]? = nil, source: String, filePoints: Int, addedAt: Double) {
        self.course = course
        self.id = id
        self.bytes = bytes ?? CourseWire.encode(course)
        self.source = source
        self.filePoints = filePoints
        self.addedAt = addedAt
    }
}

extension PhoneCourse {
    /// Points of a course read from a file are kept within this of its line (m).
    public static let tolerance = 3.0

    /// A course a file gave, as the phone keeps it for the wearable: simplified to `tolerance`,
    /// every turn kept, under a new version id.
    public init(simplifying course: Course, filePoints: Int, source: String, addedAt: Double) {
        self.init(
            course: CourseShape.simplified(course, tolerance: Self.tolerance),
            id: UUID().uuidString.lowercased(),
            source: source,
            filePoints: filePoints,
            addedAt: addedAt
        )
    }
}

/// The courses' part of the phone's database file (the `phone_course` table): added from files,
/// listed, and sent to a wearable as COURSE commands, one a part, each named `<id>:<index>` so
/// that sending again asks only for what is not answered yet.
public struct CourseStore: Sendable {
    public let inbox: Inbox

    public init(_ inbox: Inbox) {
        self.inbox = inbox
    }

    private var pool: DatabasePool { inbox.pool }

    /// How long a part's command may wait for its wearable (s): a week.
    public static let partValidity = 7 * 24 * 3600.0

    static func createTable(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE phone_course (
                    name TEXT PRIMARY KEY NOT NULL, id TEXT NOT NULL, bytes BLOB NOT NULL, source TEXT NOT NULL,
                    file_points INTEGER NOT NULL, added_at REAL NOT NULL);
                """
        )
    }

    /// Keeps `course`; false (nothing changed) when one of its name is kept and `replacing` is not
    /// set.
    public func add(_ course: PhoneCourse, replacing: Bool) async throws -> Bool {
        try await pool.write { db in
            let exists =
                try Bool.fetchOne(
                    db,
                    sql: "SELECT 1 FROM phone_course WHERE name = ?",
                    arguments: [course.course.name]
                ) ?? false
            guard !exists || replacing else { return false }
            try db.execute(
                sql: """
                    INSERT OR REPLACE INTO phone_course (name, id, bytes, source, file_points, added_at)
                    VALUES (?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    course.course.name, course.id, Data(course.bytes), course.source, course.filePoints,
                    course.addedAt,
                ]
            )
            return true
        }
    }

    /// Every course kept, by name; a row this build cannot read is left out.
    public func all() throws -> [PhoneCourse] {
        try pool.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM phone_course ORDER BY name").compactMap(Self.course)
        }
    }

    public func named(_ name: String) throws -> PhoneCourse? {
        try pool.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM phone_course WHERE name = ?", arguments: [name]).flatMap(
                Self.course
            )
        }
    }

    private static func course(_ row: Row) -> PhoneCourse? {
        let bytes = [UInt8](row["bytes"] as Data)
        guard let course = try? CourseWire.decode(bytes) else { return nil }
        return PhoneCourse(
            course: course,
            id: row["id"],
            bytes: bytes,
            source: row["source"],
            filePoints: row["file_points"],
            addedAt: row["added_at"]
        )
    }

    /// Forgets the phone's course of this name; whether it kept one.
    public func remove(named name: String) async throws -> Bool {
        let removed = try await pool.write { db in
            try db.execute(sql: "DELETE FROM phone_course WHERE name = ?", arguments: [name])
            return db.changesCount > 0
        }
        if removed { inbox.changes.changed() }
        return removed
    }

    /// Queues the command that makes `wearable` forget its course of this name (durable: it goes
    /// when the wearable next connects, for a week); the command's id.
    public func queueRemoval(named name: String, from wearable: String, at now: Double) async throws -> String {
        let id = UUID().uuidString.lowercased()
        var body = Wearbridge_Link_V1_Command()
        body.course = name
        let command = QueuedCommand(
            id: id,
            wearable: wearable,
            kind: .removeCourse,
            activity: nil,
            issuedAt: now,
            validFor: Self.partValidity,
            deadline: now + Self.partValidity,
            body: try body.serializedBytes()
        )
        try await pool.write { db in try CommandStore.insert(command, ifAbsent: true, db) }
        inbox.changes.changed()
        return id
    }

    /// Queues every part of `course` not queued for `wearable` yet (in one transaction); the ids of
    /// all its parts.
    public func send(_ course: PhoneCourse, to wearable: String, at now: Double) async throws -> [String] {
        let parts = CourseWire.parts(of: course.bytes, id: course.id)
        let ids = parts.map { "\(course.id):\($0.index)" }
        try await pool.write { db in
            for (part, id) in zip(parts, ids) {
                var body = Wearbridge_Link_V1_Command()
                body.coursePart = part
                try CommandStore.insert(
                    QueuedCommand(
                        id: id,
                        wearable: wearable,
                        kind: .course,
                        activity: nil,
                        issuedAt: now,
                        validFor: Self.partValidity,
                        deadline: now + Self.partValidity,
                        body: try body.serializedBytes()
                    ),
                    ifAbsent: true,
                    db
                )
            }
        }
        inbox.changes.changed()
        return ids
    }
}

extension CourseStore {
    /// Keeps a race's course (as the relay holds it) among the phone's courses, under its own name
    /// when that is free or holds this very course (the inviter's own), else under its name and
    /// `label` (the race's); the course kept.
    public func keep(raceCourse course: Course, label: String, at now: Double) async throws -> PhoneCourse {
        var kept = PhoneCourse(
            course: course,
            id: UUID().uuidString.lowercased(),
            source: label,
            filePoints: course.points.count,
            addedAt: now
        )
        if let same = try named(course.name) {
            if same.bytes == kept.bytes { return same }
            let name = CourseName.clean("\(course.name.prefix(40)) (\(label))") ?? label
            guard let renamed = Course(name: name, points: course.points, turns: course.turns) else {
                throw InboxError("the race's course cannot be kept under \(name)")
            }
            kept.course = renamed
            kept.bytes = CourseWire.encode(renamed)
            if let again = try named(name), again.bytes == kept.bytes { return again }
        }
        _ = try await add(kept, replacing: true)
        return kept
    }
}
