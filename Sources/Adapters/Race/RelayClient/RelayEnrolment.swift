import PostgresNIO
import RelayContract

/// Makes a runner known to the relay with the contract's own `relay.enrol`: a login role named as
/// their certificate's CN, member of relay_runner and of nothing else (so the rules that read
/// `session_user` read their name), at most `limits.connections_per_runner` connections, the
/// relay's session timeouts as its defaults. Enrolling someone already enrolled brings their role
/// up to the limits and is otherwise harmless.
public struct RelayEnrolment: Sendable {
    public init() {}

    /// True when the runner was new.
    public func enrol(_ runner: RunnerName, on relay: RelayConnection) async throws -> Bool {
        let version = try await relay.rows("SELECT max(version) FROM public.relay_migrations")[0].decode(Int?.self)
        if let version, version >= 2 {
            return try await relay.rows("SELECT relay.enrol(\(runner.text)::name)")[0].decode(Bool.self)
        }
        // A relay kept at the first schema (`relay migrate --through 1`) has no relay.enrol and no
        // per-runner limits: a role in relay_runner is a runner there.
        return try await relay.transaction { relay in
            guard try await relay.rows("SELECT 1 FROM pg_roles WHERE rolname = \(runner.text)").isEmpty else {
                guard try await relay.rows("SELECT relay.is_runner(\(runner.text))")[0].decode(Bool.self) else {
                    throw RelayError.refused(
                        code: .enrolment,
                        message: "a role named \(runner.text) exists and is not a runner; choose another name"
                    )
                }
                return false
            }
            // A role name cannot be a bind parameter; RunnerName admits only [a-z][a-z0-9_]*.
            try await relay.rows(PostgresQuery(unsafeSQL: "CREATE ROLE \(runner.text) LOGIN IN ROLE relay_runner"))
            return true
        }
    }
}
