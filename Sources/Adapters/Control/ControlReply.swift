/// The answer to one request, on one line.
public struct ControlReply: Sendable, Codable, Equatable {
    public var ok: Bool
    public var id: String?
    public var command: String?
    public var message: String?
    public var state: String?
    public var sessionID: String?
    public var status: StatusReport?
    /// Why the request was not understood or not applied.
    public var error: String?
    /// For a command that got no durable reply: storage_failing, not_durable, lookup_failed or
    /// shutting_down (scripts branch on it; `error` says it in words).
    public var reason: String?

    public init(
        ok: Bool,
        id: String? = nil,
        command: String? = nil,
        message: String? = nil,
        state: String? = nil,
        sessionID: String? = nil,
        status: StatusReport? = nil,
        error: String? = nil,
        reason: String? = nil
    ) {
        self.ok = ok
        self.id = id
        self.command = command
        self.message = message
        self.state = state
        self.sessionID = sessionID
        self.status = status
        self.error = error
        self.reason = reason
    }

    public static func failure(_ error: String, id: String? = nil) -> ControlReply {
        ControlReply(ok: false, id: id, error: error)
    }

    enum CodingKeys: String, CodingKey {
        case ok, id, command, message, state
        case sessionID = "session_id"
        case status, error, reason
    }
}
