import Foundation
import GRDB
import TrackCore

/// The headless data log: one SQLite file in WAL mode, written in batches, read by the CLI.
///
/// The daemon holds the file's one writer (a GRDB `DatabasePool`: one writing connection, reads
/// beside it in WAL, never behind an fsync). Commits are batched by the engine (about one a
/// second); each is durable (`synchronous = FULL`), so power loss costs at most the batch being
/// written, which nobody was told was safe. The outbox's delivered mark alone is not waited for
/// (`markDelivered`): the phone's own mark decides what is resent.
public final class SessionLog: Sendable {
    public static let fileName = "wearbridge.sqlite"
    /// The writer's level for every commit but the delivered mark's, which sets it back after.
    static let durableCommits = "PRAGMA synchronous = FULL"

    public let path: String
    let reader: any DatabaseReader
    /// Nil for a log opened read-only (`sessions`, `show`).
    let writer: (any DatabaseWriter)?

    private init(path: String, reader: any DatabaseReader, writer: (any DatabaseWriter)?) {
        self.path = path
        self.reader = reader
        self.writer = writer
    }

    /// Opens (creating and migrating) the log in `directory`, for the daemon.
    public static func open(directory: String) throws -> SessionLog {
        try checkDirectory(directory)
        let path = (directory as NSString).appendingPathComponent(fileName)
        if FileManager.default.fileExists(atPath: path) {
            // Look before touching (ownership and schema version, read-only): opening in WAL mode
            // would already rewrite another program's file. A new file has nothing to check.
            _ = try openReadOnly(directory: directory)
        }
        var configuration = Configuration()
        configuration.journalMode = .wal
        configuration.busyMode = .timeout(5)
        let pool = try classify(path) { try DatabasePool(path: path, configuration: configuration) }
        try classify(path) {
            // After GRDB's WAL set-up, which chooses NORMAL: each batch's commit must reach the card.
            try pool.writeWithoutTransaction { db in try db.execute(sql: durableCommits) }
            try Schema.migrator.migrate(pool)
        }
        return SessionLog(path: path, reader: pool, writer: pool)
    }

    /// Opens an existing log read-only, for `sessions` and `show`.
    public static func openReadOnly(directory: String) throws -> SessionLog {
        let path = (directory as NSString).appendingPathComponent(fileName)
        guard FileManager.default.fileExists(atPath: path) else {
            throw StoreError.directory(path: directory, reason: "no \(fileName) here yet (has the daemon run?)")
        }
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(5)
        let database = try classify(path) { try DatabaseQueue(path: path, configuration: configuration) }
        try classify(path) {
            try database.read { db in try checkOwnership(db, path: path) }
            try checkVersion(database, path: path)
        }
        return SessionLog(path: path, reader: database, writer: nil)
    }

    /// The journal mode and synchronous level actually in force (tests check the durability claim).
    public func pragmas() throws -> (journalMode: String, synchronous: Int) {
        func read(_ db: Database) throws -> (journalMode: String, synchronous: Int) {
            (
                try String.fetchOne(db, sql: "PRAGMA journal_mode") ?? "",
                try Int.fetchOne(db, sql: "PRAGMA synchronous") ?? -1
            )
        }
        // The writer's own connection: `synchronous` is per connection, and a pool's reads run on
        // its readers, whose setting says nothing about the commits.
        if let writer { return try writer.writeWithoutTransaction(read) }
        return try reader.unsafeReentrantRead(read)
    }

    private static func checkDirectory(_ directory: String) throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) else {
            throw StoreError.directory(path: directory, reason: "it does not exist")
        }
        guard isDirectory.boolValue else {
            throw StoreError.directory(path: directory, reason: "it is not a directory")
        }
        guard access(directory, W_OK | X_OK) == 0 else {
            throw StoreError.directory(
                path: directory,
                reason: "not writable by this user (\(String(cString: strerror(errno))))"
            )
        }
    }

    /// A wearbridge log has our application id, or (new file) no tables at all.
    private static func checkOwnership(_ db: Database, path: String) throws {
        let applicationID = try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0
        if applicationID == Schema.applicationID { return }
        if applicationID != 0 {
            throw StoreError.foreign(path: path, reason: String(format: "application_id is 0x%08x", applicationID))
        }
        let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        if !tables.isEmpty {
            throw StoreError.foreign(
                path: path,
                reason: "it has tables \(tables.prefix(5).joined(separator: ", ")) and no wearbridge schema"
            )
        }
    }

    private static func checkVersion(_ database: any DatabaseReader, path: String) throws {
        let known = Set(Schema.migrator.migrations)
        let applied = try database.read { db in try Schema.migrator.appliedIdentifiers(db) }
        if let unknown = applied.subtracting(known).sorted().first {
            throw StoreError.newerSchema(path: path, migration: unknown)
        }
    }

    /// SQLite's "not a database" and friends become `StoreError.corrupt` naming the file.
    @discardableResult
    private static func classify<T>(_ path: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as DatabaseError {
            switch error.resultCode {
            case .SQLITE_NOTADB, .SQLITE_CORRUPT, .SQLITE_FORMAT:
                throw StoreError.corrupt(path: path, reason: error.message ?? "\(error.resultCode)")
            case .SQLITE_CANTOPEN, .SQLITE_READONLY, .SQLITE_PERM:
                throw StoreError.directory(path: path, reason: error.message ?? "\(error.resultCode)")
            default:
                throw error
            }
        }
    }
}
