import PhoneServer
import RaceStore

/// The phone's database file: the inbox and the parts that keep tables in it, always opened
/// together (the race's store queues toward the relay inside the inbox's transactions).
enum PhoneDatabase {
    static let parts: [any InboxPart.Type] = [RaceStore.self]

    static func open(directory: String, readOnly: Bool = false) throws -> Inbox {
        try Inbox.open(directory: directory, readOnly: readOnly, parts: parts)
    }
}
