import GRDB

/// A part of the phone that keeps tables of its own in the inbox's file (the race's store): its
/// migrations run with the inbox's, and every wearable message the inbox stores goes through it in
/// the same transaction, so what it queues from a message is committed with the message or not at all.
public protocol InboxPart: SendableMetatype {
    /// Registers the part's migrations, once, under identifiers that never change.
    static func registerMigrations(_ migrator: inout DatabaseMigrator)
    /// Registers the part's migrations that came after the inbox's own (v5 to v7), in their order.
    static func registerLaterMigrations(_ migrator: inout DatabaseMigrator)
    /// A new wearable message was stored (inside the inbox's write transaction).
    static func stored(_ message: InboxMessage, _ db: Database) throws
}

extension InboxPart {
    public static func registerLaterMigrations(_ migrator: inout DatabaseMigrator) {}
}
