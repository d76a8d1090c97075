import Foundation
import GRDB
import PhoneServer
import RelayContract

/// The routes of races that are over (`relay_route`): this runner's once the relay has it (or its
/// refusal for good, so it is not built again), the partner's once read from the relay. A route is
/// kept as the relay's arrays in JSON and read back checked, as a stranger's.
extension RaceStore {
    /// `v8-race-routes`.
    static func createRouteTable(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE relay_route (
                    run TEXT NOT NULL, runner TEXT NOT NULL, route TEXT, refusal TEXT, at REAL NOT NULL,
                    PRIMARY KEY (run, runner)) WITHOUT ROWID;
                """
        )
    }

    /// What the phone holds of `run`'s routes: each runner's route, or why it was refused.
    public struct HeldRoute: Sendable, Equatable {
        public var runner: String
        public var route: RelayRoute?
        public var refusal: String?
    }

    /// Keeps `runner`'s route of `run` (a second copy changes nothing).
    public func keepRoute(run: String, runner: String, _ route: RelayRoute, at time: Double) async throws {
        let text = String(decoding: try JSONEncoder().encode(route), as: UTF8.self)
        try await pool.write { db in
            try db.execute(
                sql: """
                    INSERT INTO relay_route (run, runner, route, at) VALUES (?, ?, ?, ?)
                    ON CONFLICT (run, runner) DO UPDATE SET route = excluded.route, refusal = NULL, at = excluded.at
                    WHERE relay_route.route IS NULL
                    """,
                arguments: [run, runner, text, time]
            )
        }
        inbox.changes.changed()
    }

    /// Records that `runner`'s route of `run` will not be shared, and why.
    public func refuseRoute(run: String, runner: String, reason: String, at time: Double) async throws {
        try await pool.write { db in
            try db.execute(
                sql: "INSERT INTO relay_route (run, runner, refusal, at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
                arguments: [run, runner, reason, time]
            )
        }
    }

    /// The runners whose route of `run` is settled on the phone (held, or refused for good), without
    /// reading the routes: what the pump asks of every race it holds, every round.
    public func routeRunners(run: String) throws -> Set<String> {
        try pool.read { db in
            Set(try String.fetchAll(db, sql: "SELECT runner FROM relay_route WHERE run = ?", arguments: [run]))
        }
    }

    /// `run`'s routes as held, by runner; a stored route that does not read back is an error naming it.
    public func routes(run: String) throws -> [HeldRoute] {
        try pool.read { db in
            try Row.fetchAll(
                db,
                sql: "SELECT runner, route, refusal FROM relay_route WHERE run = ? ORDER BY runner",
                arguments: [run]
            ).map { row in
                let text: String? = row["route"]
                var route: RelayRoute?
                if let text {
                    do {
                        route = try JSONDecoder().decode(RelayRoute.self, from: Data(text.utf8))
                    } catch {
                        throw InboxError("relay_route of \(run) by \(row["runner"] as String): \(error)")
                    }
                }
                return HeldRoute(runner: row["runner"], route: route, refusal: row["refusal"])
            }
        }
    }
}
