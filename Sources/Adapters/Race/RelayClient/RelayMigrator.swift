import PostgresNIO
import RelayContract

/// Applies the relay's migrations that a database has not had, each in its own transaction with its
/// record, under a lock on the record's table so two owners migrating at once apply each step once. A migration
/// already applied whose SQL has since changed is refused: the schema is the phones' contract.
public struct RelayMigrator: Sendable {
    public let migrations: [RelayMigration]

    public init(migrations: [RelayMigration] = RelayMigration.all) {
        self.migrations = migrations
    }

    /// What one run of `migrate` did.
    public struct Outcome: Sendable, Equatable {
        public var applied: [Int]
        public var current: Int
    }

    public func migrate(_ relay: RelayConnection) async throws -> Outcome {
        try await relay.rows(
            """
            CREATE TABLE IF NOT EXISTS public.relay_migrations (
                version integer PRIMARY KEY, name text NOT NULL, sha256 text NOT NULL,
                applied_at timestamptz NOT NULL DEFAULT now())
            """
        )
        // EXECUTE runs a whole file of statements; postgres-nio's extended protocol takes one at a time.
        try await relay.rows(
            """
            CREATE OR REPLACE FUNCTION pg_temp.relay_execute(sql text) RETURNS void LANGUAGE plpgsql
            AS $$ BEGIN EXECUTE sql; END $$
            """
        )
        var applied: [Int] = []
        for migration in migrations {
            let done = try await relay.transaction { relay in
                // A table lock, not an advisory one: no runner may lock this table, anyone may take an advisory key.
                try await relay.rows("LOCK TABLE public.relay_migrations IN EXCLUSIVE MODE")
                let rows = try await relay.rows(
                    "SELECT sha256 FROM public.relay_migrations WHERE version = \(migration.version)"
                )
                if let row = rows.first {
                    let digest = try row.decode(String.self)
                    guard digest == migration.sha256 else {
                        throw RelayError.migrationChanged(version: migration.version, name: migration.name)
                    }
                    return false
                }
                try await relay.rows("SELECT pg_temp.relay_execute(\(migration.sql))")
                try await relay.rows(
                    """
                    INSERT INTO public.relay_migrations (version, name, sha256)
                    VALUES (\(migration.version), \(migration.name), \(migration.sha256))
                    """
                )
                return true
            }
            if done { applied.append(migration.version) }
        }
        let newest = try await relay.rows("SELECT max(version) FROM public.relay_migrations")
        let current = try newest.first?.decode(Int?.self) ?? 0
        guard current <= (migrations.last?.version ?? 0) else {
            throw RelayError.newerSchema(applied: current, known: migrations.last?.version ?? 0)
        }
        return Outcome(applied: applied, current: current)
    }
}
