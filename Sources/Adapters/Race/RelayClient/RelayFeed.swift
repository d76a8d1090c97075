import Foundation
import PostgresNIO
import RelayContract

/// What a phone's pump asks of the relay during a race: post its runner's messages (a resend is
/// harmless), submit the start offset and the final figures, and read the partner's messages and
/// the relay's events past its marks, the partner's newest snapshot first.
public struct RelayFeed: Sendable {
    public let relay: RelayConnection

    public init(_ relay: RelayConnection) {
        self.relay = relay
    }

    /// Races this runner is in that are accepted or ended since `since` (so their end is seen).
    public func races() async throws -> [RelayRun] {
        try await relay.rows(
            PostgresQuery(
                unsafeSQL: """
                    SELECT \(RelayRows.runColumns) FROM relay.my_runs
                    WHERE state = 'accepted' OR (start_at IS NOT NULL AND ended_at > now() - interval '1 day')
                    ORDER BY start_at
                    """
            )
        ).map(RelayRows.run)
    }

    /// Inserts one of this runner's messages; true if stored now, false if the relay had it already.
    @discardableResult
    public func post(_ message: RelayMessage) async throws -> Bool {
        try await relay.affected(
            """
            INSERT INTO relay.messages (run_id, runner, seq, class, kind, distance_m, elapsed_s, moving_s, paused, body,
                course_m)
            VALUES (\(message.runID), \(message.runner)::name, \(message.seq), \(message.messageClass.rawValue),
                \(message.kind), \(message.distanceMetres), \(message.elapsedSeconds), \(message.movingSeconds),
                \(message.paused), \(message.body)::jsonb, \(message.courseMetres)::float8)
            ON CONFLICT DO NOTHING
            """
        ) == 1
    }

    public func reportStart(_ run: UUID, offsetMilliseconds: Int) async throws {
        try await relay.rows("SELECT relay.report_start(\(run), \(offsetMilliseconds)::integer)")
    }

    /// Submits the final figures (on a course, with the distance along it); returns the run's
    /// state after (complete once both have).
    public func finish(
        _ run: UUID,
        distance: Double,
        elapsed: Double,
        moving: Double?,
        course: Double? = nil
    ) async throws -> String {
        guard let course else {
            return try await relay.rows(
                "SELECT relay.finish(\(run), \(distance)::float8, \(elapsed)::float8, \(moving)::float8)"
            )[0].decode(String.self)
        }
        return try await relay.rows(
            """
            SELECT relay.finish(\(run), \(distance)::float8, \(elapsed)::float8, \(moving)::float8, \
            \(course)::float8)
            """
        )[0].decode(String.self)
    }

    public func sweep() async throws {
        try await RaceDesk(relay).sweep()
    }

    /// The partner's newest snapshot (what a reconnect fetches before anything else).
    public func latestSnapshot(_ run: UUID, of runner: String) async throws -> RelayMessage? {
        try await relay.rows(
            PostgresQuery(
                unsafeSQL: "SELECT \(RelayRows.messageColumns) FROM relay.latest_snapshot($1, $2::name)",
                binds: Self.binds(run, runner)
            )
        ).first.map(RelayRows.message)
    }

    /// The partner's critical and notice messages after `mark`, in order.
    public func messages(_ run: UUID, of runner: String, after mark: Int64) async throws -> [RelayMessage] {
        var binds = Self.binds(run, runner)
        binds.append(mark)
        return try await relay.rows(
            PostgresQuery(
                unsafeSQL: """
                    SELECT \(RelayRows.messageColumns) FROM relay.run_messages($1, $2::name, $3, false)
                    ORDER BY seq LIMIT 500
                    """,
                binds: binds
            )
        ).map(RelayRows.message)
    }

    /// The relay's events for `run` after `mark`, in order.
    public func events(_ run: UUID, after mark: Int64) async throws -> [RelayEvent] {
        var binds = PostgresBindings()
        binds.append(run)
        binds.append(mark)
        return try await relay.rows(
            PostgresQuery(
                unsafeSQL: """
                    SELECT \(RelayRows.eventColumns) FROM relay.run_events($1, $2) ORDER BY id LIMIT 500
                    """,
                binds: binds
            )
        ).map(RelayRows.event)
    }

    /// The most points the relay takes in a route (`limits.route_points`).
    public func routePoints() async throws -> Int {
        let rows = try await relay.rows(PostgresQuery(unsafeSQL: "SELECT route_points FROM relay.limits"))
        return Int(try rows.first?.decode(Int32.self) ?? Int32(RelayRoute.defaultMaximumPoints))
    }

    /// Shares this runner's route of a race that is over; returns the points the relay holds (the
    /// same route again is harmless).
    @discardableResult
    public func shareRoute(_ run: UUID, _ route: RelayRoute) async throws -> Int {
        Int(
            try await relay.rows(
                """
                SELECT relay.share_route(\(run), \(route.latitudeE7)::integer[], \(route.longitudeE7)::integer[],
                    \(route.elapsedDeciseconds)::integer[], \(route.distanceDecimetres)::integer[])
                """
            )[0].decode(Int32.self)
        )
    }

    /// The routes of `run` the relay holds, by runner, each checked as a stranger's: a route that is
    /// not one the relay would keep comes as the reason.
    public func routes(_ run: UUID) async throws -> [(runner: String, route: Result<RelayRoute, RelayRouteProblem>)] {
        var binds = PostgresBindings()
        binds.append(run)
        return try await relay.rows(
            PostgresQuery(
                unsafeSQL: """
                    SELECT runner::text, lat_e7, lon_e7, elapsed_ds, distance_dm FROM relay.run_routes($1)
                    """,
                binds: binds
            )
        ).map { row in
            let (runner, latitudes, longitudes, elapsed, distances) = try row.decode(
                (String, [Int32], [Int32], [Int32], [Int32]).self
            )
            return (
                runner,
                Result { () throws(RelayRouteProblem) in
                    try RelayRoute(validating: latitudes, longitudes, elapsed, distances)
                }
            )
        }
    }

    private static func binds(_ run: UUID, _ runner: String) -> PostgresBindings {
        var binds = PostgresBindings()
        binds.append(run)
        binds.append(runner)
        return binds
    }
}
