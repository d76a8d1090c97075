import Engine
import SessionCore

/// Where producers put the engine's inputs: one stream, so that the engine takes one at a time.
struct EngineInbox: Sendable {
    let continuation: AsyncStream<EngineInput>.Continuation
    let router: ReplyRouter

    /// An input that expects no answer.
    func send(_ input: EngineInput) {
        continuation.yield(input)
    }

    /// An input that carries a reply token, and its answer; nil when the engine has stopped.
    func ask(_ input: (ReplyToken) -> EngineInput) async -> EngineReply? {
        await router.ask { token in
            if case .terminated = continuation.yield(input(token)) { return false }
            return true
        }
    }
}
