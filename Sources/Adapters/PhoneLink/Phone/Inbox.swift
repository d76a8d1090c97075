import Foundation
import GRDB
import Synchronization

/// The phone's database file: one SQLite file in WAL mode with `synchronous = FULL` (an ack follows
/// a commit that survives power loss), its migrations in one order, and the stores of its owners,
/// each keeping its own tables: the link's inbox (`link`), the commands (`commands`), the backfilled
/// sessions (`backfill`), the sessions as the CLI and dashboard read them (`sessions`), and the
/// parts that live in other modules (the race's store).
public final class Inbox: Sendable {
    public static let fileName = "wearbridge-phone.sqlite"
    public let path: String
    package let pool: DatabasePool
    /// The parts that keep tables of their own in the inbox's file (the race's): their migrations
    /// run with the inbox's, and each stored wearable message goes through them in its transaction.
    let parts: [any InboxPart.Type]
    /// Bumped after each commit of what the relay said about a partner: the link's loop reads the
    /// partner's snapshots again only then.
    package let partnerVersion = Atomic<Int>(0)
    /// Wakes the dashboard's streams after every commit they may show.
    public let changes = InboxSignal()

    private init(path: String, pool: DatabasePool, parts: [any InboxPart.Type]) {
        self.path = path
        self.pool = pool
        self.parts = parts
    }

    /// Opens (and, unless `readOnly`, migrates) the phone's database in `directory`, with the
    /// `parts` that keep tables in it. The phone always opens it with the same parts.
    public static func open(
        directory: String,
        readOnly: Bool = false,
        parts: [any InboxPart.Type]
    ) throws -> Inbox {
        let path = (directory as NSString).appendingPathComponent(fileName)
        var configuration = Configuration()
        configuration.busyMode = .timeout(5)
        configuration.readonly = readOnly
        if readOnly, !FileManager.default.fileExists(atPath: path) {
            throw InboxError("no inbox at \(path) yet (has `wearbridge-phone run` run?)")
        }
        let pool = try DatabasePool(path: path, configuration: configuration)
        if !readOnly {
            try pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
            try migrator(parts).migrate(pool)
        }
        return Inbox(path: path, pool: pool, parts: parts)
    }

    static func migrator(_ parts: [any InboxPart.Type]) -> DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-inbox") { db in
            try LinkStore.createTables(db)
            try CommandStore.createTable(db)
        }
        migrator.registerMigration("v2-backfill", migrate: BackfillStore.createTables)
        // The parts' migrations come third: the identifiers and order every phone's file has.
        for part in parts { part.registerMigrations(&migrator) }
        migrator.registerMigration("v5-outbox-head", migrate: LinkStore.addOutboxHead)
        migrator.registerMigration("v6-backfill-replay", migrate: BackfillStore.addReplayColumns)
        migrator.registerMigration("v7-courses", migrate: CourseStore.createTable)
        for part in parts { part.registerLaterMigrations(&migrator) }
        return migrator
    }

    /// The link's inbox in this file: the messages, their marks, the snapshots and the links.
    public var link: LinkStore { LinkStore(self) }

    /// The sessions as the CLI and the dashboard read them, from the link's messages and the backfill.
    public var sessions: SessionReads { SessionReads(self) }

    /// The backfilled sessions' store in this file.
    public var backfill: BackfillStore { BackfillStore(self) }

    /// The commands' store in this file.
    public var commands: CommandStore { CommandStore(self) }

    /// The courses' store in this file.
    public var courses: CourseStore { CourseStore(self) }
}
