/// A command's standing (`CommandState`): pending, ack, fail (with the wearable's reason, or the
/// link's when refused at once) or not answered by its deadline.
public struct CommandStateBody: DocumentedBody {
    public static let schema = "#/components/schemas/CommandState"

    public enum State: String, Encodable, Sendable, CaseIterable {
        case pending, ack, fail
        case notAnswered = "not_answered"
    }

    public var id: String
    public var state: State
    public var reason: String?
    public var message: String?
    public var session: String?

    public init(id: String, state: State, reason: String? = nil, message: String? = nil, session: String? = nil) {
        self.id = id
        self.state = state
        self.reason = reason
        self.message = message
        self.session = session
    }
}
