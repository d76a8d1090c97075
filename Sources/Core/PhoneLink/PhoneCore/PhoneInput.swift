import PhoneLinkDelivery

/// Everything that happens to the phone's link, one at a time into `PhoneCore`: the wearables'
/// streams and what they send, what the shell read or committed on the core's behalf, and time.
public enum PhoneInput: Sendable, Equatable {
    /// A stream began with a hello: the wearable's name in it, its outbox epoch and head.
    case hello(PhoneConnection, name: String, epoch: String, head: Int)
    /// The inbox's marks for the hello's wearable and epoch (after `.readMark`).
    case mark(PhoneConnection, InboxMark)
    /// An envelope arrived.
    case envelope(PhoneConnection, EnvelopeFacts)
    /// The envelope in hand was committed: `stored` false when the inbox held it already.
    case committed(PhoneConnection, stored: Bool)
    /// The wearable cannot take a command now (another is being applied).
    case busy(PhoneConnection, command: String, message: String)
    /// The wearable refused a command it could not read.
    case rejected(PhoneConnection, command: String, message: String)
    /// A chunk of a backfilled session arrived.
    case chunk(PhoneConnection)
    /// The chunk in hand was committed with its cursor: how many rows it held, and whether it was
    /// the session's last.
    case chunkCommitted(PhoneConnection, rows: Int, done: Bool)
    /// A backfill request could not go (nothing to ask for, or the wearable was gone).
    case backfillNotAsked(wearable: String)
    /// A second hello, or a message of a kind this phone does not know.
    case ignored(PhoneConnection, PhoneAction.Ignored)
    /// The stream ended.
    case closed(PhoneConnection)
    /// The commands the store holds unanswered, each with the wearable it is for (after `.readCommands`).
    case queued([QueuedFacts])
    /// The race partner's newest snapshots for a connection, as (run, seq) in the order read
    /// (after `.readPartner`).
    case partner(PhoneConnection, [PartnerKey])
    /// Time passed; the race's partner version as it stands (nil without races).
    case tick(partnerVersion: Int?)

    /// A command the store holds, with its wearable.
    public struct QueuedFacts: Sendable, Equatable {
        public var wearable: String
        public var command: PendingCommands.Command

        public init(wearable: String, command: PendingCommands.Command) {
            self.wearable = wearable
            self.command = command
        }
    }

    /// One partner snapshot as the feed judges it.
    public struct PartnerKey: Sendable, Equatable {
        public var run: String
        public var seq: Int64

        public init(run: String, seq: Int64) {
            self.run = run
            self.seq = seq
        }
    }
}
