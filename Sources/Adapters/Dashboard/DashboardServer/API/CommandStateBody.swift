/// A command's standing (`CommandState`): pending, ack, fail (with the wearable's reason, or the
/// link's when refused at once) or not answered by its deadline.
struct CommandStateBody: DocumentedBody {
    static let schema = "#/components/schemas/CommandState"

    enum State: String, Encodable, Sendable, CaseIterable {
        case pending, ack, fail
        case notAnswered = "not_answered"
    }

    var id: String
    var state: State
    var reason: String?
    var message: String?
    var session: String?
}
