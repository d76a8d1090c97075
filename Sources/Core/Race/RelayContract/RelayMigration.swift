/// One versioned step of the relay's schema (relay/migrations/NNNN_name.sql), carried in the binary
/// so that `wearbridge-phone relay migrate` needs no files beside it.
public struct RelayMigration: Sendable, Equatable {
    public let version: Int
    public let name: String
    /// SHA-256 of the SQL as written: a migration changed after it was applied is refused, not rerun.
    public let sha256: String
    public let sql: String

    public init(version: Int, name: String, sha256: String, sql: String) {
        self.version = version
        self.name = name
        self.sha256 = sha256
        self.sql = sql
    }
}
