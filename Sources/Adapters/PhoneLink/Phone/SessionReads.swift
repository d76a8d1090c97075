import Foundation
import GRDB
import HeartRate
import PhoneLinkContract
import PhoneLinkMessages
import SessionCore
import SpeedSensors
import SwiftProtobuf
import TrackCore

/// A session as the history lists it: its start and, once ended, its totals.
public struct SessionRecord: Sendable {
    public var wearable: String
    public var session: String
    public var started: Wearbridge_Link_V1_SessionStarted?
    public var ended: Wearbridge_Link_V1_SessionEnded?
    /// pulling, complete, unknown, or nil when no backfill was asked for.
    public var backfill: BackfillState.Progress?
    public var backfillRows: Int
}

/// A session as `sessions` lists it.
public struct SessionListing: Sendable, Equatable {
    public var wearable: String
    public var session: String
    /// The wearable's time of its `session_started` (ms since 1970), once delivered.
    public var startedAtMs: Int64?
    /// The last of its start, pauses, resumes and end the link delivered; nil before any.
    public var state: MessageKind?
    public var messages: Int
}

/// What replaying a backfilled session needs besides its rows, as the wearable logged it.
public struct BackfilledStart: Sendable, Equatable {
    public var activity: Activity
    /// GPS time the session started (s since 1970 UTC).
    public var startedAt: Double
    /// gps, or indoors the footpod or treadmill its distance came from.
    public var distanceSource: DistanceSource
    /// The factors an indoor session applied to its footpod.
    public var footpodFactors: StrideFactors?
    /// The course the session followed (its last `course_following` event's); nil: none.
    public var course: String?
}

/// The sessions as the CLI and the dashboard read them, from the link's messages (their start, end
/// and state) and the backfill (the wearable's own record of their inputs); each query one read
/// transaction of the WAL.
public struct SessionReads: Sendable {
    public let inbox: Inbox

    public init(_ inbox: Inbox) {
        self.inbox = inbox
    }

    private var pool: DatabasePool { inbox.pool }

    /// Sessions the link has delivered messages of, newest first, as `sessions` lists them.
    public func list() throws -> [SessionListing] {
        let lifecycle: [MessageKind] = [.sessionStarted, .sessionPaused, .sessionResumed, .sessionEnded]
        return try pool.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT wearable, session, count(*) AS n, max(seq) AS last,
                        (SELECT kind FROM inbox i2 WHERE i2.wearable = i.wearable AND i2.session = i.session
                            AND i2.kind IN (?, ?, ?, ?) ORDER BY seq DESC LIMIT 1) AS state,
                        (SELECT created_at_ms FROM inbox i3 WHERE i3.wearable = i.wearable AND i3.session = i.session
                            AND i3.kind = ? LIMIT 1) AS started
                    FROM inbox i WHERE session IS NOT NULL GROUP BY wearable, session ORDER BY max(received_at) DESC
                    """,
                arguments: StatementArguments(lifecycle.map(\.rawValue) + [MessageKind.sessionStarted.rawValue])
            ).map { row in
                SessionListing(
                    wearable: row["wearable"],
                    session: row["session"],
                    startedAtMs: row["started"],
                    state: (row["state"] as String?).flatMap(MessageKind.init(rawValue:)),
                    messages: row["n"]
                )
            }
        }
    }

    /// Every session the link delivered, newest first, with its start, end and backfill.
    public func records() throws -> [SessionRecord] {
        try pool.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT i.wearable, i.session, max(i.received_at) AS last,
                        (SELECT payload FROM inbox s WHERE s.session = i.session AND s.kind = ?
                            LIMIT 1) AS started,
                        (SELECT payload FROM inbox e WHERE e.session = i.session AND e.kind = ?
                            LIMIT 1) AS ended,
                        b.done AS done, b.rows AS rows
                    FROM inbox i LEFT JOIN backfill b ON b.wearable = i.wearable AND b.session = i.session
                    WHERE i.session IS NOT NULL AND i.session != ''
                    GROUP BY i.wearable, i.session ORDER BY last DESC
                    """,
                arguments: [MessageKind.sessionStarted.rawValue, MessageKind.sessionEnded.rawValue]
            ).map { row in
                let done: Int? = row["done"]
                return SessionRecord(
                    wearable: row["wearable"],
                    session: row["session"],
                    started: (row["started"] as Data?).flatMap {
                        try? Wearbridge_Link_V1_Payload(serializedBytes: $0).sessionStarted
                    },
                    ended: (row["ended"] as Data?).flatMap {
                        try? Wearbridge_Link_V1_Payload(serializedBytes: $0).sessionEnded
                    },
                    backfill: done.map(BackfillState.Progress.init(done:)),
                    backfillRows: row["rows"] ?? 0
                )
            }
        }
    }

    /// A session's activity and start from its `session_started` message, with its distance source
    /// and footpod factors from the backfill (the wearable's log), else from that message.
    public func start(_ session: String) throws -> BackfilledStart? {
        try pool.read { db -> BackfilledStart? in
            guard
                let payload = try Data.fetchOne(
                    db,
                    sql: "SELECT payload FROM inbox WHERE session = ? AND kind = ? LIMIT 1",
                    arguments: [session, MessageKind.sessionStarted.rawValue]
                ),
                let started = try? Wearbridge_Link_V1_Payload(serializedBytes: payload).sessionStarted,
                let activity = Activity(rawValue: started.activity)
            else { return nil }
            let replay = try Row.fetchOne(
                db,
                sql: "SELECT distance_source, stride_factors FROM backfill WHERE session = ? LIMIT 1",
                arguments: [session]
            )
            let source = (replay?["distance_source"] as String?) ?? started.distanceSource
            var course: String?
            let events = try Data.fetchCursor(
                db,
                sql: "SELECT row FROM backfill_row WHERE session = ? AND kind = 'event' ORDER BY seq",
                arguments: [session]
            )
            while let data = try events.next() {
                guard case .event(let event)? = try? Wearbridge_Link_V1_BackfillRow(serializedBytes: data).row,
                    let name = event.followedCourse
                else { continue }
                course = name
            }
            return BackfilledStart(
                activity: activity,
                startedAt: Double(started.startedAtMs) / 1000,
                distanceSource: DistanceSource(rawValue: source) ?? .gps,
                footpodFactors: (replay?["stride_factors"] as String?).flatMap {
                    try? JSONDecoder().decode(StrideFactors.self, from: Data($0.utf8))
                },
                course: course
            )
        }
    }

    /// The backfilled copy of a session as the wearable logged its inputs (fixes, beats, footpod and
    /// treadmill readings, applied commands) in sequence order, one at a time, each with its GPS time: what exports replay.
    public func journal(
        session: String,
        _ body: (SessionController.JournalEntry, Double?) throws -> Void
    ) throws {
        try pool.read { db in
            let rows = try Data.fetchCursor(
                db,
                sql: "SELECT row FROM backfill_row WHERE session = ? ORDER BY seq",
                arguments: [session]
            )
            while let data = try rows.next() {
                guard let row = try? Wearbridge_Link_V1_BackfillRow(serializedBytes: data) else { continue }
                switch row.row {
                case .fix(let fix):
                    try body(.fix(Self.fix(fix)), fix.time == 0 ? nil : fix.time)
                case .beat(let beat):
                    let sample = HeartRateSample(
                        bpm: Int(beat.bpm),
                        contact: SensorContact(rawValue: beat.contact) ?? .notSupported,
                        rrIntervals: beat.rr1024.map { UInt16(clamping: $0) },
                        receivedAt: beat.received.isNaN ? 0 : beat.received
                    )
                    try body(.heartRate(sample), beat.time == 0 ? nil : beat.time)
                case .speed(let speed):
                    guard let sample = Self.speed(speed) else { continue }
                    try body(.speed(sample), sample.time)
                case .command(let command) where command.accepted:
                    guard let kind = SessionCommand(rawValue: command.command) else { continue }
                    try body(.command(kind, id: command.commandID), nil)
                case .command, .event, nil:
                    continue
                }
            }
        }
    }

    private static func speed(_ row: Wearbridge_Link_V1_SpeedRow) -> SpeedSensorSample? {
        func value(_ number: Double) -> Double? { number.isNaN ? nil : number }
        guard let source = DistanceSource(rawValue: row.source), source != .gps else { return nil }
        let reading = SpeedSample(
            speed: value(row.speed),
            cadence: row.hasCadence ? Int(row.cadence) : nil,
            strideLength: value(row.stride),
            totalDistance: value(row.totalM),
            inclination: value(row.incline),
            elapsedTime: row.hasElapsedS ? Int(row.elapsedS) : nil,
            steps: row.hasSteps ? Int(row.steps) : nil,
            still: row.hasStill ? row.still : nil
        )
        return SpeedSensorSample(
            source: source,
            reading: reading,
            receivedAt: value(row.received) ?? 0,
            payload: [UInt8](row.payload),
            time: row.time == 0 ? nil : row.time
        )
    }

    private static func fix(_ row: Wearbridge_Link_V1_FixRow) -> Fix {
        func value(_ number: Double) -> Double? { number.isNaN ? nil : number }
        let position = value(row.lat).flatMap { lat in value(row.lon).map { GeoPoint(latitude: lat, longitude: $0) } }
        return Fix(
            mode: Int(row.mode),
            time: row.time == 0 ? nil : GPSTime(seconds: row.time),
            position: position,
            errorEast: value(row.epx),
            errorNorth: value(row.epy),
            horizontalError: value(row.eph),
            speed: value(row.speed),
            track: value(row.track),
            speedError: value(row.eps),
            altitude: value(row.alt),
            receivedAt: value(row.received)
        )
    }
}
