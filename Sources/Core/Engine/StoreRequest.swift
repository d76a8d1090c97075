import SessionCore
import TrackCore

/// One transaction for the writer: rows in order, and the open session's figures.
public struct WriteBatch: Sendable, Equatable {
    /// Reported back with the outcome; batches go one at a time, in this order.
    public var id: Int
    public var rows: [LogRow]
    public var live: LiveFigures?

    public init(id: Int, rows: [LogRow], live: LiveFigures? = nil) {
        self.id = id
        self.rows = rows
        self.live = live
    }
}

/// What the engine asks of the store's writer, in order.
public enum StoreRequest: Sendable, Equatable {
    case write(WriteBatch)
    /// The stored reply to a command id this process has not seen: a retry after a restart is
    /// answered, never applied twice, and the read is the writer's, off the engine's loop.
    case lookUp(commandID: String)
    /// Nothing more will come: finish and report `.closed`.
    case close
}

/// What the writer reports back to the engine, in the order of the requests.
public enum StoreReport: Sendable, Equatable {
    /// The batch is durable (`synchronous = FULL`).
    case committed(batch: Int)
    /// The batch's transaction failed and was rolled back: none of it is on disk.
    case failed(batch: Int, StorageFailure)
    case lookedUp(commandID: String, Result<CommandReply?, StorageFailure>)
    case closed
}
