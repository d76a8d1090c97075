import Foundation
import GRDB
import PhoneLinkContract
import PhoneRaceCore
import PhoneServer
import RelayContract
import SessionCore
import SwiftProtobuf
import TrackCore

/// The race's way to the wearable: the order that arms its countdown, the cancel that disarms it
/// and the partner's events, each a command in the `command` table (so the phone's loop resends it with
/// the same id until the wearable's durable answer, and the wearable applies it once). The partner's
/// events are queued in the transaction that stores what the relay said, so none is lost or doubled.
extension RaceStore {
    static func registerRaceOrders(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v4-race-orders") { db in
            try db.execute(
                sql: """
                    ALTER TABLE command ADD COLUMN body BLOB;
                    ALTER TABLE relay_race ADD COLUMN partner_seq INTEGER NOT NULL DEFAULT 0;
                    ALTER TABLE relay_race ADD COLUMN activity TEXT;
                    ALTER TABLE relay_race ADD COLUMN distance_m REAL;
                    """
            )
        }
    }

    /// The id of the command that arms `run`'s countdown.
    public static func raceOrderID(_ run: String) -> String { "race-\(run)" }
    public static func raceCancelID(_ run: String) -> String { "race-cancel-\(run)" }

    /// Partner events may wait this long for a wearable that is away (s).
    static let partnerEventValidity = 24 * 3600.0

    /// Queues the order that arms the wearable's countdown, once per race: valid until shortly before
    /// the start (a countdown armed later than that would start late), answered by its deadline.
    public func queueRaceOrder(
        run: String,
        wearable: String,
        partner: String,
        startAt: Double,
        activity: Activity?,
        distance: Double?,
        course: String? = nil,
        now: Double
    ) async throws {
        var body = Wearbridge_Link_V1_Command()
        body.race = .with {
            $0.run = run
            $0.partner = partner
            $0.startAtMs = Int64((startAt * 1000).rounded())
            $0.distanceM = distance ?? 0
            $0.course = course ?? ""
        }
        let order = QueuedCommand(
            id: Self.raceOrderID(run),
            wearable: wearable,
            kind: .race,
            activity: activity,
            issuedAt: now,
            validFor: max(1, startAt - now - 1),
            deadline: startAt,
            body: try body.serializedBytes()
        )
        try await pool.write { db in try CommandStore.insert(order, ifAbsent: true, db) }
    }

    /// A (re)connected wearable may have restarted and lost an armed countdown: each race about to
    /// start whose order it took is handed to it again under a new id (a wearable still armed
    /// answers "already armed" and changes nothing).
    public func reconnected(wearable: String, now: Double) async throws {
        try await pool.write { db in
            let runs = try String.fetchAll(
                db,
                sql: """
                    SELECT r.run FROM relay_race r JOIN command c ON c.id = ? || r.run
                    WHERE r.wearable = ? AND r.state = ? AND r.session IS NULL AND r.start_at > ?
                        AND c.state = 'answered' AND c.ok = 1
                    """,
                arguments: [
                    Self.raceOrderID(""), wearable, RelayRun.State.accepted.rawValue, now + RaceOrders.noneWithin,
                ]
            )
            for run in runs { try Self.handAgain(run: run, wearable: wearable, now: now, db) }
        }
    }

    /// Hands `run`'s order to the wearable again under a new id, whatever it answered before: one
    /// that was not ready (no fix yet, just switched on) may be ready now.
    public func handRaceOrderAgain(run: String, wearable: String, now: Double) async throws {
        try await pool.write { db in try Self.handAgain(run: run, wearable: wearable, now: now, db) }
    }

    /// A copy of `run`'s first order, valid until shortly before the start; none once that is near.
    private static func handAgain(run: String, wearable: String, now: Double, _ db: Database) throws {
        let row = try Row.fetchOne(
            db,
            sql: """
                SELECT r.start_at, c.activity, c.body FROM relay_race r JOIN command c ON c.id = ?
                WHERE r.run = ? AND r.wearable = ? AND r.start_at > ?
                """,
            arguments: [raceOrderID(run), run, wearable, now + RaceOrders.noneWithin]
        )
        guard let row else { return }
        let startAt: Double = row["start_at"]
        let again = QueuedCommand(
            id: raceOrderID(run) + "-again-\(Int(now * 1000))",
            wearable: wearable,
            kind: .race,
            activity: (row["activity"] as String?).flatMap(Activity.init(rawValue:)),
            issuedAt: now,
            validFor: max(1, startAt - now - 1),
            deadline: startAt,
            body: (row["body"] as Data?).map { [UInt8]($0) }
        )
        try CommandStore.insert(again, ifAbsent: true, db)
    }

    /// The newest of `run`'s orders (the first, or one handed again) as the race's core sees it:
    /// whether the wearable took any of them (it acknowledged one), when the newest was queued, and
    /// the wearable's answer to it; nil before the first.
    public func handedOrder(run: String) throws -> HandedOrder? {
        let (newest, taken) = try pool.read { db in
            let arguments: StatementArguments = [Self.raceOrderID(run), Self.raceOrderID(run) + "-again-%"]
            let newest = try Row.fetchOne(
                db,
                sql: """
                    SELECT id, issued_at FROM command WHERE id = ? OR id LIKE ?
                    ORDER BY issued_at DESC, rowid DESC LIMIT 1
                    """,
                arguments: arguments
            )
            let taken = try Bool.fetchOne(
                db,
                sql: """
                    SELECT EXISTS (SELECT 1 FROM command WHERE (id = ? OR id LIKE ?) AND state = 'answered' AND ok = 1)
                    """,
                arguments: arguments
            )
            return (newest, taken ?? false)
        }
        guard let newest, let id = newest["id"] as String?, let (state, answer) = try inbox.commands.standing(id) else {
            return nil
        }
        return HandedOrder(taken: taken, issuedAt: newest["issued_at"], answer: Self.handed(state, answer))
    }

    /// A command's standing as an order's answer.
    static func handed(_ state: QueuedCommand.State, _ answer: CommandAnswer?) -> HandedOrder.Answer {
        switch (state, answer?.outcome) {
        case (.pending, _): .waiting
        case (.answered, .ack): .took
        case (.answered, .fail(.notReady)): .notReady(answer?.message ?? "")
        case (.answered, .fail): .cannot(answer?.message ?? "")
        case (.answered, .notAnswered), (.answered, nil), (.notAnswered, _): .lapsed
        }
    }

    /// Queues the cancel of an armed countdown (the race was cancelled before its start).
    public func queueRaceCancel(run: String, wearable: String, now: Double) async throws {
        var body = Wearbridge_Link_V1_Command()
        body.race = .with { $0.run = run }
        let cancel = QueuedCommand(
            id: Self.raceCancelID(run),
            wearable: wearable,
            kind: .cancelRace,
            activity: nil,
            issuedAt: now,
            validFor: 600,
            deadline: now + 600,
            body: try body.serializedBytes()
        )
        try await pool.write { db in try CommandStore.insert(cancel, ifAbsent: true, db) }
    }

    /// A partner event for the wearable, numbered in the race's own order (inside `commitPartner`).
    static func queuePartnerEvent(
        _ news: PartnerNews,
        item: PartnerItem,
        run: String,
        at now: Double,
        _ db: Database
    ) throws {
        guard
            let race = try Row.fetchOne(
                db,
                sql: "SELECT wearable, partner_seq FROM relay_race WHERE run = ? AND session IS NOT NULL",
                arguments: [run]
            )
        else {
            // Not a race this phone's wearable ran (an older one the relay still lists): nothing to tell.
            return
        }
        let seq: Int64 = race["partner_seq"] + 1
        let details = Self.details(item.body)
        let event = wire(news)
        var body = Wearbridge_Link_V1_Command()
        body.partnerEvent = .with {
            $0.run = run
            $0.seq = seq
            $0.kind = event
            $0.splitIndex = UInt32(clamping: (details["index"] as? NSNumber)?.intValue ?? 0)
            $0.seconds =
                (details[event == .split ? "duration_s" : "elapsed_s"] as? NSNumber)?.doubleValue ?? item.elapsed ?? 0
            $0.distanceM = (details["distance_m"] as? NSNumber)?.doubleValue ?? item.distance ?? 0
        }
        try db.execute(sql: "UPDATE relay_race SET partner_seq = ? WHERE run = ?", arguments: [seq, run])
        let command = QueuedCommand(
            id: "partner-\(run)-\(seq)",
            wearable: race["wearable"],
            kind: .partnerEvent,
            activity: nil,
            issuedAt: now,
            validFor: partnerEventValidity,
            deadline: now + partnerEventValidity,
            body: try body.serializedBytes()
        )
        try CommandStore.insert(command, ifAbsent: true, db)
    }

    /// The link's name for partner news.
    static func wire(_ news: PartnerNews) -> Wearbridge_Link_V1_PartnerEvent.Kind {
        switch news {
        case .paused: .paused
        case .resumed: .resumed
        case .split: .split
        case .finished: .finished
        case .abandoned: .abandoned
        }
    }

    /// A relay message's or event's JSON details (empty when it has none or they do not parse).
    public static func details(_ body: String) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any]) ?? [:]
    }

    /// The partner's newest snapshot for each race of `wearable` under way or just ended, with the
    /// race's start instant (the wearable's elapsed time is counted from it).
    func partnerNewest(wearable: String) throws -> [(race: RelayRace, snapshot: PartnerItem)] {
        try pool.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT r.*, p.key AS p_key, p.distance_m AS p_distance, p.elapsed_s AS p_elapsed, p.paused AS p_paused,
                        p.body AS p_body, p.at AS p_at, p.kind AS p_kind, p.runner AS p_runner, p.course_m AS p_course
                    FROM relay_race r JOIN partner_inbox p ON p.run = r.run AND p.source = 'message' AND p.class = 'snapshot'
                    WHERE r.wearable = ? AND r.session IS NOT NULL
                    """,
                arguments: [wearable]
            ).map { row in
                (
                    try Self.race(row),
                    PartnerItem(
                        source: .message,
                        key: row["p_key"],
                        runner: row["p_runner"],
                        messageClass: .snapshot,
                        kind: row["p_kind"],
                        distance: row["p_distance"],
                        elapsed: row["p_elapsed"],
                        paused: row["p_paused"],
                        body: row["p_body"],
                        at: row["p_at"],
                        course: row["p_course"]
                    )
                )
            }
        }
    }
}

extension RaceStore: RaceLink {
    public func partnerSnapshots(wearable: String, shownFor: Double) throws -> [Wearbridge_Link_V1_PartnerSnapshot] {
        try partnerNewest(wearable: wearable).map { Self.wire($0.race, $0.snapshot, shownFor: shownFor) }
    }

    /// The partner's snapshot as the link carries it to the wearable.
    static func wire(_ race: RelayRace, _ item: PartnerItem, shownFor: Double) -> Wearbridge_Link_V1_PartnerSnapshot {
        .with {
            $0.run = race.run
            $0.seq = item.key
            $0.distanceDm = UInt32(clamping: Int(((item.distance ?? 0) * 10).rounded()))
            $0.elapsedDs = UInt32(clamping: Int(((item.elapsed ?? 0) * 10).rounded()))
            $0.paused = item.paused
            let gpsTime = (details(item.body)["gps_time"] as? NSNumber)?.doubleValue
            $0.gpsTimeMs = gpsTime.map { Int64(($0 * 1000).rounded()) } ?? 0
            $0.expiresAtMs = item.at > 0 ? Int64(((item.at + shownFor) * 1000).rounded()) : 0
            if let course = item.course, course.isFinite, course >= 0 {
                $0.courseDm = UInt32(clamping: Int((course * 10).rounded()))
            }
        }
    }
}
