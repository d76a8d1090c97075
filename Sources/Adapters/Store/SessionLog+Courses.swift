import Course
import Foundation
import GRDB
import TrackCore

/// A course the log keeps: its name, its id (the version the phone sent) and its serialized form.
public struct StoredCourse: Sendable, Equatable {
    public var name: String
    public var id: String
    public var bytes: [UInt8]
    /// When it was kept (UTC, s).
    public var keptAt: Double
}

extension SessionLog {
    /// Every course kept, by name.
    public func courses() throws -> [StoredCourse] {
        try reader.read { db in
            try Row.fetchAll(db, sql: "SELECT name, course_id, bytes, kept_at FROM course ORDER BY name").map { row in
                StoredCourse(name: row[0], id: row[1], bytes: [UInt8](row[2] as Data), keptAt: row[3])
            }
        }
    }

    /// The parts of courses still arriving.
    public func courseParts() throws -> [CoursePart] {
        try reader.read { db in
            try Row.fetchAll(
                db,
                sql: "SELECT course_id, idx, count, total_bytes, bytes FROM course_part ORDER BY course_id, idx"
            ).map { row in
                CoursePart(
                    courseID: row[0],
                    index: row[1],
                    count: row[2],
                    totalBytes: row[3],
                    bytes: [UInt8](row[4] as Data)
                )
            }
        }
    }
}

extension SessionLog {
    /// The name of the course session `id` follows (its last `course_following` event); nil: none.
    public func courseName(followedBy id: String) throws -> String? {
        try reader.read { db in try Self.courseName(followedBy: id, db) }
    }

    /// The course session `id` follows and the session's accepted positions (smoothed, with their
    /// receive instants), to follow it again after a restart; nil when it follows none.
    public func courseFollowed(by id: String) throws -> (name: String, track: [(position: GeoPoint, at: Double)])? {
        try reader.read { db in
            guard let name = try Self.courseName(followedBy: id, db) else { return nil }
            let track = try Row.fetchAll(
                db,
                sql: """
                    SELECT smoothed_lat, smoothed_lon, received FROM fix
                    WHERE session_id = ? AND smoothed_lat IS NOT NULL AND received IS NOT NULL ORDER BY seq
                    """,
                arguments: [id]
            ).map { row in (position: GeoPoint(latitude: row[0], longitude: row[1]), at: row[2] as Double) }
            return (name, track)
        }
    }

    private static func courseName(followedBy id: String, _ db: Database) throws -> String? {
        guard
            let detail = try String.fetchOne(
                db,
                sql:
                    "SELECT detail FROM event WHERE session_id = ? AND kind = 'course_following' ORDER BY seq DESC LIMIT 1",
                arguments: [id]
            ),
            let object = try? JSONSerialization.jsonObject(with: Data(detail.utf8)) as? [String: Any]
        else { return nil }
        return object["course"] as? String
    }
}
