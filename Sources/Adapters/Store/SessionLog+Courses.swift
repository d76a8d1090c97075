import Course
import Foundation
import GRDB

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
