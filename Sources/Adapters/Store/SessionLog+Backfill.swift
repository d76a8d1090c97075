import Foundation
import GRDB
import PhoneLinkContract

extension SessionLog {
    /// The session's rows after `seq`, in order (fixes, beats, speed readings, events and commands
    /// share the session's sequence), at most `limit`: one backfill chunk. Nil when there is no such
    /// session.
    /// The chunk also says what replaying the rows needs: the session's distance source and the
    /// footpod factors it applied.
    public func backfillChunk(
        session: String,
        after seq: Int,
        limit: Int
    ) throws -> Wearbridge_Link_V1_BackfillChunk? {
        try reader.read { db in
            guard
                let stored = try Row.fetchOne(
                    db,
                    sql: "SELECT distance_source, stride_factors, energy FROM session WHERE id = ?",
                    arguments: [session]
                )
            else { return nil }
            let arguments: StatementArguments = [session, seq, limit + 1]
            var rows: [Wearbridge_Link_V1_BackfillRow] = []
            /// One table's rows after the cursor, each with its seq; `fill` sets which row it is.
            func collect(_ sql: String, _ fill: (inout Wearbridge_Link_V1_BackfillRow, Row) -> Void) throws {
                for row in try Row.fetchAll(db, sql: sql, arguments: arguments) {
                    rows.append(
                        .with {
                            $0.seq = UInt64(row["seq"] as Int)
                            fill(&$0, row)
                        }
                    )
                }
            }
            try collect(
                """
                SELECT seq, time, mode, lat, lon, eph, speed, track, verdict, smoothed_lat, smoothed_lon,
                    epx, epy, eps, received, alt
                FROM fix WHERE session_id = ? AND seq > ? ORDER BY seq LIMIT ?
                """
            ) { entry, row in
                entry.fix = .with {
                    $0.time = row["time"] ?? 0
                    $0.mode = Int32(row["mode"] as Int)
                    $0.lat = row["lat"] ?? .nan
                    $0.lon = row["lon"] ?? .nan
                    $0.eph = row["eph"] ?? .nan
                    $0.speed = row["speed"] ?? .nan
                    $0.track = row["track"] ?? .nan
                    $0.verdict = row["verdict"]
                    $0.smoothedLat = row["smoothed_lat"] ?? .nan
                    $0.smoothedLon = row["smoothed_lon"] ?? .nan
                    $0.epx = row["epx"] ?? .nan
                    $0.epy = row["epy"] ?? .nan
                    $0.eps = row["eps"] ?? .nan
                    $0.received = row["received"] ?? .nan
                    $0.alt = row["alt"] ?? .nan
                }
            }
            try collect(
                "SELECT seq, time, bpm, rr, contact, received FROM heart_rate WHERE session_id = ? AND seq > ? ORDER BY seq LIMIT ?"
            ) { entry, row in
                let rr = (row["rr"] as String? ?? "[]").trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
                    .split(separator: ",").compactMap { UInt32($0.trimmingCharacters(in: .whitespaces)) }
                entry.beat = .with {
                    $0.time = row["time"] ?? 0
                    $0.bpm = UInt32(row["bpm"] as Int)
                    $0.rr1024 = rr
                    $0.contact = row["contact"] ?? ""
                    $0.received = row["received"] ?? .nan
                }
            }
            try collect(
                """
                SELECT seq, time, received, source, speed, cadence, stride, total_m, incline, elapsed_s, payload,
                    steps, still
                FROM speed WHERE session_id = ? AND seq > ? ORDER BY seq LIMIT ?
                """
            ) { entry, row in
                entry.speed = .with {
                    $0.time = row["time"] ?? 0
                    $0.received = row["received"] ?? .nan
                    $0.source = row["source"]
                    $0.speed = row["speed"] ?? .nan
                    if let cadence = row["cadence"] as Int? { $0.cadence = UInt32(clamping: cadence) }
                    $0.stride = row["stride"] ?? .nan
                    $0.totalM = row["total_m"] ?? .nan
                    $0.incline = row["incline"] ?? .nan
                    if let elapsed = row["elapsed_s"] as Int? { $0.elapsedS = UInt32(clamping: elapsed) }
                    $0.payload = row["payload"] ?? Data()
                    if let steps = row["steps"] as Int? { $0.steps = UInt32(clamping: steps) }
                    if let still = row["still"] as Bool? { $0.still = still }
                }
            }
            try collect(
                "SELECT seq, time, kind, detail FROM event WHERE session_id = ? AND seq > ? ORDER BY seq LIMIT ?"
            ) { entry, row in
                entry.event = .with {
                    $0.time = row["time"] ?? 0
                    $0.kind = row["kind"]
                    $0.detailJson = row["detail"]
                }
            }
            try collect(
                "SELECT seq, id, command, accepted FROM command WHERE session_id = ? AND seq > ? ORDER BY seq LIMIT ?"
            ) { entry, row in
                entry.command = .with {
                    $0.commandID = row["id"]
                    $0.command = row["command"]
                    $0.accepted = row["accepted"]
                }
            }
            rows.sort { $0.seq < $1.seq }
            return .with {
                $0.session = session
                $0.afterSeq = UInt64(clamping: seq)
                $0.rows = Array(rows.prefix(limit))
                $0.done = rows.count <= limit
                $0.distanceSource = stored["distance_source"] ?? "gps"
                $0.strideFactorsJson = stored["stride_factors"] ?? ""
                $0.energyJson = stored["energy"] ?? ""
            }
        }
    }
}
