import Foundation
import GRDB
import PhoneServer
import RelayContract

/// Races on a course: the course each held race follows on this phone and its wearable (kept in
/// the phone's courses under `relay_race.course`, with its length to turn the wearable's distance
/// to go into the distance along it the relay takes), whether the relay was asked for it, and the
/// distance along it of each message each way.
extension RaceStore {
    /// `v9-race-courses`.
    static func addCourseColumns(_ db: Database) throws {
        try db.execute(
            sql: """
                ALTER TABLE relay_race ADD COLUMN course TEXT;
                ALTER TABLE relay_race ADD COLUMN course_length_m REAL;
                ALTER TABLE relay_race ADD COLUMN course_checked INTEGER NOT NULL DEFAULT 0;
                ALTER TABLE relay_outbox ADD COLUMN course_m REAL;
                ALTER TABLE partner_inbox ADD COLUMN course_m REAL;
                """
        )
    }

    /// `run` follows the kept course `name` (`length` m), or none (`name` nil): asked once.
    public func checkedCourse(run: String, name: String?, length: Double?) async throws {
        try await pool.write { db in
            try db.execute(
                sql: "UPDATE relay_race SET course = ?, course_length_m = ?, course_checked = 1 WHERE run = ?",
                arguments: [name, length, run]
            )
        }
    }
}
