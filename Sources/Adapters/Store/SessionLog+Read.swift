import Engine
import Foundation
import GRDB
import HeartRate
import SessionCore
import SpeedSensors
import TrackCore

extension SessionLog {
    private static let sessionColumns = """
        id, state, activity, started_at, start_anchor, ended_at, end_reason, distance_m, elapsed_s, moving_s,
        paused_s, fixes_accepted, fixes_rejected, summary, distance_source, stride_factors, energy
        """

    /// All sessions, newest first.
    public func sessions() throws -> [StoredSession] {
        try reader.read { db in
            try Row.fetchAll(db, sql: "SELECT \(Self.sessionColumns) FROM session ORDER BY started_at DESC, id")
                .map(Self.session)
        }
    }

    /// Sessions a crash left open (starting, active or paused): the daemon resumes them.
    public func openSessions() throws -> [StoredSession] {
        try reader.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT \(Self.sessionColumns) FROM session
                    WHERE state IN ('starting', 'active', 'paused', 'auto_paused', 'ending') ORDER BY started_at
                    """
            ).map(Self.session)
        }
    }

    /// One session by id or unique id prefix, with its splits and events.
    public func detail(matching prefix: String) throws -> SessionDetail {
        try reader.read { db in
            let rows = try Row.fetchAll(
                db,
                sql: "SELECT \(Self.sessionColumns) FROM session WHERE id LIKE ? ESCAPE '\\' ORDER BY id LIMIT 6",
                arguments: [Self.likePattern(prefix)]
            )
            let matches = rows.map(Self.session)
            guard let session = matches.first else { throw StoreError.noSuchSession(prefix) }
            if matches.count > 1, !matches.contains(where: { $0.id == prefix }) {
                throw StoreError.ambiguousSession(prefix, matches: matches.map(\.id))
            }
            let chosen = matches.first(where: { $0.id == prefix }) ?? session
            let splits = try Row.fetchAll(
                db,
                // A log the daemon has not migrated yet (read by a newer CLI) has no heart rate per split.
                sql: """
                    SELECT idx, distance_m, duration_s, end_timer_s, \(try Self.hasColumn(db, "split", "avg_hr") ? "avg_hr" : "NULL")
                    FROM split WHERE session_id = ? ORDER BY idx
                    """,
                arguments: [chosen.id]
            ).map {
                Split(
                    index: $0[0],
                    distance: $0[1],
                    duration: $0[2],
                    endTimer: $0[3],
                    averageHeartRate: $0[4]
                )
            }
            let events = try Row.fetchAll(
                db,
                sql: "SELECT seq, kind, time, detail FROM event WHERE session_id = ? ORDER BY seq",
                arguments: [chosen.id]
            ).map { StoredEvent(seq: $0[0], kind: $0[1], time: $0[2], detailJSON: $0[3]) }
            let fixCount =
                try Int.fetchOne(db, sql: "SELECT count(*) FROM fix WHERE session_id = ?", arguments: [chosen.id]) ?? 0
            let beatCount =
                try Int.fetchOne(
                    db,
                    sql: "SELECT count(*) FROM heart_rate WHERE session_id = ?",
                    arguments: [chosen.id]
                ) ?? 0
            return SessionDetail(
                session: chosen,
                splits: splits,
                events: events,
                fixCount: fixCount,
                beatCount: beatCount
            )
        }
    }

    /// The inputs of a session in order, to rebuild it after a crash, and the next free sequence.
    public func journal(of sessionID: String) throws -> (entries: [SessionController.JournalEntry], nextSeq: Int) {
        var entries: [SessionController.JournalEntry] = []
        try streamJournal(of: sessionID) { entries.append($0.entry) }
        let maxSeq = try reader.read { db in
            try Int.fetchOne(
                db,
                sql: """
                    SELECT max(m) FROM (
                        SELECT max(seq) AS m FROM fix WHERE session_id = ?1
                        UNION ALL SELECT max(seq) FROM event WHERE session_id = ?1
                        UNION ALL SELECT max(seq) FROM command WHERE session_id = ?1
                        UNION ALL SELECT max(seq) FROM heart_rate WHERE session_id = ?1
                        UNION ALL SELECT max(seq) FROM speed WHERE session_id = ?1
                        \(try db.tableExists("pressure") ? "UNION ALL SELECT max(seq) FROM pressure WHERE session_id = ?1" : ""))
                    """,
                arguments: [sessionID]
            ) ?? 0
        }
        return (entries, maxSeq + 1)
    }

    /// The GPS time of a session's first fix that has one.
    public func firstFixTime(of sessionID: String) throws -> Double? {
        try reader.read { db in
            try Double.fetchOne(
                db,
                sql: "SELECT time FROM fix WHERE session_id = ? AND time IS NOT NULL ORDER BY seq LIMIT 1",
                arguments: [sessionID]
            )
        }
    }

    /// A session's logged inputs (fixes, beats, footpod and treadmill samples, applied commands) one
    /// at a time in sequence order, from five cursors merged: a 12-hour session is never held whole (exports, recovery).
    public func streamJournal(of sessionID: String, _ body: (JournalItem) throws -> Void) throws {
        try reader.read { db in
            let fixes = try Row.fetchCursor(
                db,
                sql: """
                    SELECT seq, received, time, mode, lat, lon, epx, epy, eph, speed, track, eps,
                        \(try Self.hasColumn(db, "fix", "alt") ? "alt" : "NULL"),
                        \(try Self.hasColumn(db, "fix", "epv") ? "epv" : "NULL")
                    FROM fix WHERE session_id = ? ORDER BY seq
                    """,
                arguments: [sessionID]
            ).map { row in JournalItem(seq: row[0], entry: .fix(Self.fix(row)), time: row[2]) }
            let beats = try Row.fetchCursor(
                db,
                sql: """
                    SELECT seq, received, time, bpm, contact, energy_kj, rr, payload
                    FROM heart_rate WHERE session_id = ? ORDER BY seq
                    """,
                arguments: [sessionID]
            ).map { row in
                let sample = HeartRateSample(
                    bpm: row[3],
                    contact: SensorContact(storedName: row[4]),
                    energyExpended: row[5],
                    rrIntervals: Self.rr(row[6]),
                    receivedAt: row[1] ?? 0,
                    payload: (row[7] as Data?).map { [UInt8]($0) } ?? []
                )
                return JournalItem(seq: row[0], entry: .heartRate(sample), time: row[2])
            }
            let speeds = try Row.fetchCursor(
                db,
                sql: """
                    SELECT seq, received, time, source, speed, cadence, stride, total_m, incline, elapsed_s, payload,
                        steps, still
                    FROM speed WHERE session_id = ? ORDER BY seq
                    """,
                arguments: [sessionID]
            ).map { row in
                let reading = SpeedSample(
                    speed: row[4],
                    cadence: row[5],
                    strideLength: row[6],
                    totalDistance: row[7],
                    inclination: row[8],
                    elapsedTime: row[9],
                    steps: row[11],
                    still: row[12]
                )
                let sample = SpeedSensorSample(
                    source: DistanceSource(rawValue: row[3]) ?? .footpod,
                    reading: reading,
                    receivedAt: row[1] ?? 0,
                    payload: (row[10] as Data?).map { [UInt8]($0) } ?? [],
                    time: row[2]
                )
                return JournalItem(seq: row[0], entry: .speed(sample), time: row[2])
            }
            let pressures = try Row.fetchCursor(
                db,
                sql: try db.tableExists("pressure")
                    ? "SELECT seq, received, time, kpa FROM pressure WHERE session_id = ? ORDER BY seq"
                    : "SELECT 0, 0.0, 0.0, 0.0 WHERE ? IS NULL",
                arguments: [sessionID]
            ).map { row in
                let sample = PressureSample(kilopascal: row[3], receivedAt: row[1] ?? 0, time: row[2])
                return JournalItem(seq: row[0], entry: .pressure(sample), time: row[2])
            }
            // Only what was applied: a refusal changed nothing, and an expired command must stay unapplied.
            let commands = try Row.fetchCursor(
                db,
                sql: "SELECT seq, command, id FROM command WHERE session_id = ? AND accepted = 1 ORDER BY seq",
                arguments: [sessionID]
            ).compactMap { row -> JournalItem? in
                guard let command = SessionCommand(rawValue: row[1]) else { return nil }
                return JournalItem(seq: row[0], entry: .command(command, id: row[2]), time: nil)
            }
            var heads = [
                try fixes.next(), try beats.next(), try speeds.next(), try pressures.next(), try commands.next(),
            ]
            while let index = heads.indices.filter({ heads[$0] != nil }).min(by: { heads[$0]!.seq < heads[$1]!.seq }) {
                try body(heads[index]!)
                switch index {
                case 0: heads[0] = try fixes.next()
                case 1: heads[1] = try beats.next()
                case 2: heads[2] = try speeds.next()
                case 3: heads[3] = try pressures.next()
                default: heads[4] = try commands.next()
                }
            }
        }
    }

    private static func fix(_ row: Row) -> Fix {
        let time: Double? = row[2]
        let lat: Double? = row[4]
        let lon: Double? = row[5]
        return Fix(
            mode: row[3],
            time: time.map(GPSTime.init(seconds:)),
            position: lat.flatMap { lat in lon.map { GeoPoint(latitude: lat, longitude: $0) } },
            errorEast: row[6],
            errorNorth: row[7],
            horizontalError: row[8],
            speed: row[9],
            track: row[10],
            speedError: row[11],
            altitude: row[12],
            verticalError: row[13],
            receivedAt: row[1]
        )
    }

    /// The stored reply to a command id: a retry after a restart is answered, not applied.
    /// Read beside the writing connection (WAL), never behind an fsync.
    public func reply(toCommand id: String) async throws(StorageFailure) -> CommandReply? {
        do {
            return try await reader.read { db in try Self.reply(toCommand: id, db) }
        } catch {
            throw storageFailure(error)
        }
    }

    private static func reply(toCommand id: String, _ db: Database) throws -> CommandReply? {
        guard let json = try String.fetchOne(db, sql: "SELECT reply FROM command WHERE id = ?", arguments: [id])
        else { return nil }
        return try JSONDecoder().decode(CommandReply.self, from: Data(json.utf8))
    }

    private static func session(_ row: Row) -> StoredSession {
        StoredSession(
            id: row["id"],
            state: row["state"],
            activity: row["activity"],
            startedAt: row["started_at"],
            startAnchor: row["start_anchor"],
            endedAt: row["ended_at"],
            endReason: row["end_reason"],
            distance: row["distance_m"],
            elapsed: row["elapsed_s"],
            moving: row["moving_s"],
            paused: row["paused_s"],
            fixesAccepted: row["fixes_accepted"],
            fixesRejected: row["fixes_rejected"],
            summaryJSON: row["summary"],
            distanceSource: row["distance_source"] ?? "gps",
            footpodFactors: (row["stride_factors"] as String?).flatMap {
                try? JSONDecoder().decode(StrideFactors.self, from: Data($0.utf8))
            },
            energy: (row["energy"] as String?).flatMap {
                try? JSONDecoder().decode(EnergySettings.self, from: Data($0.utf8))
            }
        )
    }

    /// Every beat of a session in order, for `show --beats` and the end-to-end checks.
    public func beats(of sessionID: String) throws -> [StoredBeat] {
        try reader.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT seq, received, time, bpm, contact, energy_kj, rr, payload FROM heart_rate WHERE session_id = ? ORDER BY seq
                    """,
                arguments: [sessionID]
            ).map {
                StoredBeat(
                    seq: $0[0],
                    received: $0[1],
                    time: $0[2],
                    bpm: $0[3],
                    contact: $0[4],
                    energyExpended: $0[5],
                    rrIntervals: Self.rr($0[6]),
                    payload: ($0[7] as Data?).map { [UInt8]($0) } ?? []
                )
            }
        }
    }

    /// The rr column: a JSON array of integers (1/1024 s); anything else reads as none.
    static func rr(_ text: String?) -> [UInt16] {
        guard let text, text.hasPrefix("["), text.hasSuffix("]") else { return [] }
        return text.dropFirst().dropLast().split(separator: ",").compactMap {
            UInt16($0.trimmingCharacters(in: .whitespaces))
        }
    }

    private static func likePattern(_ prefix: String) -> String {
        var escaped = ""
        for character in prefix {
            if character == "%" || character == "_" || character == "\\" { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped + "%"
    }

    /// A log the daemon has not migrated yet (read by a newer CLI) lacks the newer columns.
    private static func hasColumn(_ db: Database, _ table: String, _ column: String) throws -> Bool {
        try Row.fetchAll(db, sql: "PRAGMA table_info(\(table))").contains { $0["name"] == column }
    }
}
