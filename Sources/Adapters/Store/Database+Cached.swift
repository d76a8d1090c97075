import GRDB

extension Database {
    /// Runs one statement that the connection keeps compiled. The data log repeats a handful of
    /// statements every second for hours; compiling each one anew (and GRDB's authorizer around
    /// the compiler) was a measured share of the daemon's CPU (docs/benchmarks.md, footprint).
    func executeCached(sql: String, arguments: StatementArguments = StatementArguments()) throws {
        try cachedStatement(sql: sql).execute(arguments: arguments)
    }
}
