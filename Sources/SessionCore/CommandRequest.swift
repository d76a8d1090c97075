import TrackCore

/// A command as an edge (control socket, phone link) hands it to the engine, already checked:
/// it has an id, and a known activity if any.
public struct CommandRequest: Sendable, Equatable {
    public var command: SessionCommand
    public var id: String
    public var activity: Activity?
    public var token: ReplyToken

    public init(_ command: SessionCommand, id: String, activity: Activity? = nil, token: ReplyToken) {
        self.command = command
        self.id = id
        self.activity = activity
        self.token = token
    }
}
