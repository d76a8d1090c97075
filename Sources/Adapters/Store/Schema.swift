import Foundation
import GRDB

/// The data log's tables, as numbered migrations; a database is only ever migrated forward.
enum Schema {
    /// `PRAGMA application_id` of a wearbridge log ("WBRG"): how a foreign SQLite file is told apart.
    static let applicationID: Int32 = 0x5742_5247

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-sessions") { db in
            try db.execute(sql: "PRAGMA application_id = \(applicationID)")
            try db.execute(
                sql: """
                    CREATE TABLE session (
                        id TEXT PRIMARY KEY NOT NULL,
                        state TEXT NOT NULL,
                        activity TEXT NOT NULL,
                        started_at REAL NOT NULL,
                        start_anchor TEXT NOT NULL,
                        ended_at REAL,
                        end_anchor TEXT,
                        end_reason TEXT,
                        distance_m REAL NOT NULL DEFAULT 0,
                        elapsed_s REAL NOT NULL DEFAULT 0,
                        moving_s REAL NOT NULL DEFAULT 0,
                        paused_s REAL NOT NULL DEFAULT 0,
                        fixes_accepted INTEGER NOT NULL DEFAULT 0,
                        fixes_rejected INTEGER NOT NULL DEFAULT 0,
                        summary TEXT
                    );
                    CREATE TABLE fix (
                        session_id TEXT NOT NULL REFERENCES session(id),
                        seq INTEGER NOT NULL,
                        received REAL,
                        time REAL,
                        mode INTEGER NOT NULL,
                        lat REAL, lon REAL,
                        epx REAL, epy REAL, eph REAL,
                        speed REAL, track REAL, eps REAL,
                        verdict TEXT NOT NULL,
                        smoothed_lat REAL, smoothed_lon REAL,
                        PRIMARY KEY (session_id, seq)
                    ) WITHOUT ROWID;
                    CREATE TABLE event (
                        session_id TEXT NOT NULL REFERENCES session(id),
                        seq INTEGER NOT NULL,
                        kind TEXT NOT NULL,
                        time REAL,
                        received REAL,
                        detail TEXT NOT NULL DEFAULT '{}',
                        PRIMARY KEY (session_id, seq)
                    ) WITHOUT ROWID;
                    CREATE TABLE command (
                        id TEXT PRIMARY KEY NOT NULL,
                        session_id TEXT,
                        seq INTEGER NOT NULL,
                        command TEXT NOT NULL,
                        accepted INTEGER NOT NULL,
                        reply TEXT NOT NULL,
                        received REAL
                    );
                    CREATE INDEX command_session ON command(session_id, seq);
                    CREATE TABLE split (
                        session_id TEXT NOT NULL REFERENCES session(id),
                        idx INTEGER NOT NULL,
                        distance_m REAL NOT NULL,
                        duration_s REAL NOT NULL,
                        end_timer_s REAL NOT NULL,
                        PRIMARY KEY (session_id, idx)
                    ) WITHOUT ROWID;
                    """
            )
        }
        migrator.registerMigration("v2-heart-rate") { db in
            // Filled by the Bluetooth strap; rr: a JSON array of RR intervals exactly as sent, in 1/1024 s
            // (integers: no rounding on the way to the log; seconds = value / 1024).
            try db.execute(
                sql: """
                    CREATE TABLE heart_rate (
                        session_id TEXT NOT NULL REFERENCES session(id),
                        seq INTEGER NOT NULL,
                        received REAL,
                        time REAL,
                        bpm INTEGER NOT NULL,
                        contact TEXT,
                        energy_kj REAL,
                        rr TEXT NOT NULL DEFAULT '[]',
                        PRIMARY KEY (session_id, seq)
                    ) WITHOUT ROWID;
                    """
            )
        }
        migrator.registerMigration("v3-heart-rate-payload") { db in
            // The notification's bytes as received, next to what they were decoded to.
            try db.execute(sql: "ALTER TABLE heart_rate ADD COLUMN payload BLOB")
        }
        migrator.registerMigration("v4-outbox") { db in
            // Messages for the phone, written in the same transaction as the rows they report.
            // AUTOINCREMENT: a sequence number is never reused, even after the newest row is deleted
            // (a coalesced snapshot). `epoch` names this log's sequence to the phone.
            try db.execute(
                sql: """
                    CREATE TABLE outbox (
                        seq INTEGER PRIMARY KEY AUTOINCREMENT,
                        class TEXT NOT NULL,
                        kind TEXT NOT NULL,
                        session_id TEXT,
                        payload BLOB NOT NULL,
                        created_at REAL NOT NULL,
                        state TEXT NOT NULL DEFAULT 'pending',
                        delivered_at REAL
                    );
                    CREATE INDEX outbox_pending ON outbox(state, class, seq);
                    CREATE TABLE link_meta (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL);
                    """
            )
            try db.execute(
                sql: "INSERT INTO link_meta (key, value) VALUES ('epoch', ?), ('notices_evicted', '0')",
                arguments: [UUID().uuidString.lowercased()]
            )
        }
        migrator.registerMigration("v5-split-heart-rate") { db in
            // A split's average heart rate: what its cue speaks, the same object as the row.
            try db.execute(sql: "ALTER TABLE split ADD COLUMN avg_hr REAL")
        }
        migrator.registerMigration("v6-fix-altitude") { db in
            // What gpsd said of the height: exports carry it as elevation.
            try db.execute(sql: "ALTER TABLE fix ADD COLUMN alt REAL")
        }
        migrator.registerMigration("v7-speed") { db in
            // Filled by a footpod or a treadmill, every sample: what it said in SI units (speed m/s,
            // cadence steps/min, stride m, its own total distance m, incline %), and its bytes. A
            // session says where its distance came from (gps, or indoors footpod or treadmill).
            try db.execute(
                sql: """
                    CREATE TABLE speed (
                        session_id TEXT NOT NULL REFERENCES session(id),
                        seq INTEGER NOT NULL,
                        received REAL,
                        time REAL,
                        source TEXT NOT NULL,
                        speed REAL,
                        cadence INTEGER,
                        stride REAL,
                        total_m REAL,
                        incline REAL,
                        elapsed_s INTEGER,
                        payload BLOB,
                        PRIMARY KEY (session_id, seq)
                    ) WITHOUT ROWID;
                    ALTER TABLE session ADD COLUMN distance_source TEXT NOT NULL DEFAULT 'gps';
                    ALTER TABLE session ADD COLUMN stride_factors TEXT;
                    """
            )
        }
        migrator.registerMigration("v8-calibration") { db in
            // The stretches that taught each footpod's factor, kept across sessions: a straight,
            // steady stretch with good GPS (kind gps) or a distance the runner declared (fixed).
            try db.execute(
                sql: """
                    CREATE TABLE calibration (
                        seq INTEGER PRIMARY KEY AUTOINCREMENT,
                        footpod TEXT NOT NULL,
                        session_id TEXT,
                        kind TEXT NOT NULL,
                        start REAL NOT NULL,
                        end REAL NOT NULL,
                        gps_m REAL NOT NULL,
                        footpod_m REAL NOT NULL,
                        speed REAL NOT NULL,
                        band INTEGER NOT NULL,
                        recorded_at REAL
                    );
                    CREATE INDEX calibration_footpod ON calibration(footpod, seq);
                    """
            )
        }
        migrator.registerMigration("v9-elevation") { db in
            // A fix's vertical error (gpsd epv), which the elevation filter judges, and every
            // barometer reading (kPa): a recovered session's elevation is the live one's.
            try db.execute(
                sql: """
                    ALTER TABLE fix ADD COLUMN epv REAL;
                    CREATE TABLE pressure (
                        session_id TEXT NOT NULL REFERENCES session(id),
                        seq INTEGER NOT NULL,
                        received REAL,
                        time REAL,
                        kpa REAL NOT NULL,
                        PRIMARY KEY (session_id, seq)
                    ) WITHOUT ROWID;
                    """
            )
        }
        migrator.registerMigration("v10-energy") { db in
            // The body mass, load and walking model a session's energy is costed by, as JSON
            // (`EnergySettings`); null: it costs none.
            try db.execute(sql: "ALTER TABLE session ADD COLUMN energy TEXT")
        }
        migrator.registerMigration("v11-steps") { db in
            // The pedometer's readings (source `steps`): its cumulative steps and whether it judged
            // the wearer still; null from footpods and treadmills.
            try db.execute(sql: "ALTER TABLE speed ADD COLUMN steps INTEGER")
            try db.execute(sql: "ALTER TABLE speed ADD COLUMN still INTEGER")
        }
        migrator.registerMigration("v12-courses") { db in
            // Courses the phone sent, each under its name (the link's serialized `Course`), and the
            // parts of those still arriving, by course id and index.
            try db.execute(
                sql: """
                    CREATE TABLE course (
                        name TEXT PRIMARY KEY NOT NULL, course_id TEXT NOT NULL, bytes BLOB NOT NULL,
                        kept_at REAL NOT NULL);
                    CREATE TABLE course_part (
                        course_id TEXT NOT NULL, idx INTEGER NOT NULL, count INTEGER NOT NULL,
                        total_bytes INTEGER NOT NULL, bytes BLOB NOT NULL, PRIMARY KEY (course_id, idx));
                    """
            )
        }
        return migrator
    }
}
