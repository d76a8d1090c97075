import SessionCore

/// What the engine answers to a request: a durable command reply, a failure with its reason, or
/// the status.
public enum EngineReply: Sendable, Equatable {
    /// Applied or refused on its merits, and on disk: a retry with the same id gets it again.
    case command(CommandReply)
    /// Not made durable, or not applied, and why.
    case failed(CommandFailure)
    case status(SessionStatus)
}

/// A command the engine could not answer with a durable reply.
public struct CommandFailure: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Reason: String, Sendable {
        /// Storage is failing: the command was not applied; retry with the same id later.
        case storageFailing = "storage_failing"
        /// Applied here, but its commit failed: it is kept and retried; ask again with the same id.
        case notDurable = "not_durable"
        /// The log could not be read to tell whether this id was already applied.
        case lookupFailed = "lookup_failed"
        case shuttingDown = "shutting_down"
    }

    public var commandID: String
    public var command: SessionCommand
    public var reason: Reason
    public var message: String

    public init(commandID: String, command: SessionCommand, reason: Reason, message: String) {
        self.commandID = commandID
        self.command = command
        self.reason = reason
        self.message = message
    }

    public var description: String { message }
}
