/// What the wearer (or the phone, later) asks of the session.
public enum SessionCommand: String, CaseIterable, Sendable, Codable {
    case start
    case pause
    case resume
    case end
}

/// The answer to one command, kept by its id so that a retry gets it again.
public struct CommandReply: Sendable, Equatable, Codable {
    public var commandID: String
    public var command: SessionCommand
    public var accepted: Bool
    public var message: String
    public var sessionID: String?
    public var state: SessionLifecycle.State

    public init(
        commandID: String,
        command: SessionCommand,
        accepted: Bool,
        message: String,
        sessionID: String?,
        state: SessionLifecycle.State
    ) {
        self.commandID = commandID
        self.command = command
        self.accepted = accepted
        self.message = message
        self.sessionID = sessionID
        self.state = state
    }
}
