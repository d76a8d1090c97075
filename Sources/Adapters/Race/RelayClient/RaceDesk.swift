import Foundation
import PostgresNIO
import RelayContract

/// A runner's race commands, each one call of the relay's functions (the contract's own rules and
/// clock decide); reads go through `relay.my_runs` and the relay's read functions, which answer a
/// runner about their own runs only.
public struct RaceDesk: Sendable {
    public let relay: RelayConnection

    public init(_ relay: RelayConnection) {
        self.relay = relay
    }

    /// What an invite asks for. Nil values take the relay's defaults (`relay.limits`).
    public struct Invitation: Sendable {
        public var partner: RunnerName
        public var activity = "run"
        public var distanceMetres: Double?
        public var leadSeconds: Double = 90
        public var expiresInSeconds: Double?
        public var abandonAfterSeconds: Double?
        public var rematchOf: UUID?

        public init(partner: RunnerName) {
            self.partner = partner
        }
    }

    public func invite(_ invitation: Invitation) async throws -> UUID {
        let rows = try await relay.rows(
            """
            SELECT relay.invite(\(invitation.partner.text)::name, \(invitation.activity),
                \(invitation.distanceMetres)::float8, make_interval(secs => \(invitation.leadSeconds)::float8),
                make_interval(secs => \(invitation.abandonAfterSeconds)::float8),
                make_interval(secs => \(invitation.expiresInSeconds)::float8), \(invitation.rematchOf)::uuid)
            """
        )
        return try rows[0].decode(UUID.self)
    }

    /// An invite to a race on `course`: the relay judges the course, then makes the invite (its
    /// distance the course's length), in one call.
    public func invite(_ invitation: Invitation, on course: RelayCourse) async throws -> UUID {
        let rows = try await relay.rows(
            """
            SELECT relay.invite_on_course(\(invitation.partner.text)::name, \(course.name),
                \(course.latitudeE7)::integer[], \(course.longitudeE7)::integer[], \(course.distanceCentimetres)::integer[],
                \(course.turnCentimetres)::integer[], \(course.turnDirections)::text[], \(invitation.activity),
                make_interval(secs => \(invitation.leadSeconds)::float8),
                make_interval(secs => \(invitation.abandonAfterSeconds)::float8),
                make_interval(secs => \(invitation.expiresInSeconds)::float8), \(invitation.rematchOf)::uuid)
            """
        )
        return try rows[0].decode(UUID.self)
    }

    /// The course of `run` (nil for a race without one, or a run that is not mine).
    public func course(_ run: UUID) async throws -> RelayCourse? {
        var binds = PostgresBindings()
        binds.append(run)
        guard
            let row = try await relay.rows(
                PostgresQuery(
                    unsafeSQL: """
                        SELECT name, lat_e7, lon_e7, distance_cm, turn_cm, turn_direction FROM relay.run_course($1)
                        """,
                    binds: binds
                )
            ).first
        else { return nil }
        let (name, latitudes, longitudes, distances, turns, directions) = try row.decode(
            (String, [Int32], [Int32], [Int32], [Int32], [String]).self
        )
        return RelayCourse(
            name: name,
            latitudeE7: latitudes,
            longitudeE7: longitudes,
            distanceCentimetres: distances,
            turnCentimetres: turns,
            turnDirections: directions
        )
    }

    /// Accepts; returns the agreed start instant (the database's time plus the invite's lead).
    public func accept(_ run: UUID) async throws -> Date {
        try await relay.rows("SELECT relay.accept(\(run))")[0].decode(Date.self)
    }

    public func decline(_ run: UUID) async throws {
        try await relay.rows("SELECT relay.decline(\(run))")
    }

    /// Cancels; the relay takes a reason of printable text, so control characters become spaces.
    public func cancel(_ run: UUID, reason: String?) async throws {
        let printable = reason.map(TerminalText.printable)
        try await relay.rows("SELECT relay.cancel(\(run), \(printable))")
    }

    /// The relay's clock work (expiries, abandonments); any runner may do it, each act happens once.
    @discardableResult
    public func sweep() async throws -> Int {
        try await relay.rows("SELECT relay.sweep()")[0].decode(Int.self)
    }

    /// My runs, newest first; only those still open when `openOnly`.
    public func runs(openOnly: Bool) async throws -> [RelayRun] {
        let filter = openOnly ? "WHERE state IN ('invited', 'accepted')" : ""
        return try await relay.rows(
            PostgresQuery(
                unsafeSQL: "SELECT \(RelayRows.runColumns) FROM relay.my_runs \(filter) ORDER BY invited_at DESC"
            )
        ).map(RelayRows.run)
    }

    /// A run, its entries and its events.
    public struct Details: Sendable, Codable {
        public var run: RelayRun
        public var entries: [RelayEntry]
        public var events: [RelayEvent]
    }

    public func details(_ run: UUID) async throws -> Details {
        var query = PostgresQuery(unsafeSQL: "SELECT \(RelayRows.runColumns) FROM relay.my_runs WHERE id = $1")
        query.binds.append(run)
        guard let row = try await relay.rows(query).first else {
            throw RelayError.notFound("no run \(run) of yours on the relay")
        }
        var entries = PostgresQuery(
            unsafeSQL: "SELECT \(RelayRows.entryColumns) FROM relay.run_entries($1) ORDER BY runner"
        )
        entries.binds.append(run)
        var events = PostgresQuery(
            unsafeSQL: "SELECT \(RelayRows.eventColumns) FROM relay.run_events($1) ORDER BY id"
        )
        events.binds.append(run)
        return Details(
            run: try RelayRows.run(row),
            entries: try await relay.rows(entries).map(RelayRows.entry),
            events: try await relay.rows(events).map(RelayRows.event)
        )
    }

    /// The run of mine whose id starts with `prefix` (at least 4 characters), so a person can type
    /// the first few of a UUID.
    public func resolve(_ prefix: String) async throws -> UUID {
        let lowered = prefix.lowercased()
        if let id = UUID(uuidString: lowered) { return id }
        guard lowered.count >= 4, lowered.allSatisfy({ $0.isHexDigit || $0 == "-" }) else {
            throw RelayError.notFound("\(prefix) is not a run id (a UUID, or at least its first 4 characters)")
        }
        let rows = try await relay.rows(
            "SELECT id FROM relay.my_runs WHERE id::text LIKE \(lowered + "%") ORDER BY invited_at DESC LIMIT 2"
        )
        guard let first = rows.first else { throw RelayError.notFound("no run of yours starts with \(prefix)") }
        guard rows.count == 1 else { throw RelayError.notFound("more than one run of yours starts with \(prefix)") }
        return try first.decode(UUID.self)
    }
}
