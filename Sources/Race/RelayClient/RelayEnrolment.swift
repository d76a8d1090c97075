import PostgresNIO
import RelayContract

/// Makes a runner known to the relay: a login role named as their certificate's CN, member of
/// relay_runner and of nothing else, so the rules that read `session_user` read their name.
/// Enrolling someone already enrolled is harmless.
public struct RelayEnrolment: Sendable {
    public init() {}

    /// True when the runner was new.
    public func enrol(_ runner: RunnerName, on relay: RelayConnection) async throws -> Bool {
        try await relay.transaction { relay in
            let exists = try await relay.rows("SELECT 1 FROM pg_roles WHERE rolname = \(runner.text)")
            if exists.isEmpty {
                // A role name cannot be a bind parameter; RunnerName admits only [a-z][a-z0-9_]*.
                try await relay.rows(PostgresQuery(unsafeSQL: "CREATE ROLE \(runner.text) LOGIN IN ROLE relay_runner"))
                return true
            }
            let member = try await relay.rows("SELECT relay.is_runner(\(runner.text))")
            guard try member.first?.decode(Bool.self) == true else {
                throw RelayError.refused(
                    code: "WB001",
                    message: "a role named \(runner.text) exists and is not a runner; choose another name"
                )
            }
            return false
        }
    }
}
