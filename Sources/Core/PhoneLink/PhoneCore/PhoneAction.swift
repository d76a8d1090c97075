import PhoneLinkDelivery

/// What the phone's shell must do, in order, for one input.
public enum PhoneAction: Sendable, Equatable {
    /// Refuse the stream (its hello cannot open one).
    case refuse(PhoneConnection, PhoneStream.Refusal)
    /// Read the inbox's marks for this wearable and epoch, and hand them back as `.mark`.
    case readMark(PhoneConnection, epoch: String)
    /// An older stream of the same wearable is replaced: stop writing to it; it ends at its next message.
    case replace(PhoneConnection)
    /// The stream is open: write the link as connected (with the hello's name, epoch and head).
    case opened(PhoneConnection, name: String, stream: PhoneStream)
    /// Send a welcome with the marks.
    case welcome(PhoneConnection, through: Int, snapshot: Int)
    /// A (re)connected wearable may have restarted and lost an armed countdown: hand it again.
    case handRacesAgain(wearable: String)
    /// Write the link's last-seen time.
    case seen(wearable: String)
    /// Commit the envelope in hand with its mark, then hand back `.committed`.
    case commit(PhoneConnection, seq: Int, unknownKind: Bool)
    /// The envelope in hand is not stored, and why.
    case dropped(PhoneConnection, seq: Int, Dropped)
    /// Acknowledge through these marks.
    case ack(PhoneConnection, through: Int, snapshot: Int)
    /// Record that the wearable was busy with another command.
    case recordBusy(command: String, message: String)
    /// Settle a command for good.
    case settle(command: String, Settlement)
    /// Commit the chunk in hand with its cursor, then hand back `.chunkCommitted`.
    case commitChunk(PhoneConnection)
    /// Ask the wearable for the next chunk the backfill queue holds (`.backfillNotAsked` if none can go).
    case askBackfill(PhoneConnection)
    /// Read the commands the store holds unanswered, and hand them back as `.queued`.
    case readCommands
    /// Send this command on this connection (then note it sent in the store).
    case send(PendingCommands.Command, to: PhoneConnection)
    /// Read the partner's newest snapshots for this connection's wearable, and hand them back as `.partner`.
    case readPartner(PhoneConnection)
    /// Hand these of the snapshots just read (by index) to the wearable.
    case handPartner(PhoneConnection, indices: [Int])
    /// A message was ignored.
    case ignored(PhoneConnection, Ignored)
    /// The wearable's stream is gone: write the link as disconnected.
    case disconnected(wearable: String)
    /// A message on a stream that is no longer the wearable's: end it.
    case end(PhoneConnection)

    /// Why an envelope is not stored.
    public enum Dropped: Sendable, Equatable {
        /// At or below the mark: a resend.
        case duplicate
        /// A snapshot older than the one held.
        case staleSnapshot
        /// No seq or class, or beyond the wearable's head; the mark unmoved.
        case invalid(String)
        /// A snapshot no runner could send; its seq is spent.
        case impossible(String)
    }

    /// How a command ends without the wearable's reply through the outbox.
    public enum Settlement: Sendable, Equatable {
        /// The wearable could not read it, in its words.
        case rejected(String)
        /// No answer by its deadline.
        case notAnswered
    }

    /// Why a message is ignored.
    public enum Ignored: Sendable, Equatable {
        case secondHello
        case unknownKind
    }
}
