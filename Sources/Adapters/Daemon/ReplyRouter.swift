import Engine
import Logging
import SessionCore
import Synchronization

/// Hands out reply tokens and resumes whoever waits on one, once: the engine's `.reply` actions
/// find their caller here. Closed when the engine has finished, so that nobody waits forever.
final class ReplyRouter: Sendable {
    private struct State {
        var next: UInt64 = 1
        var waiting: [ReplyToken: CheckedContinuation<EngineReply?, Never>] = [:]
        var closed = false
    }

    private let state = Mutex(State())
    private let logger: Logger

    init(logger: Logger) {
        self.logger = logger
    }

    /// Registers a token, lets `submit` hand it to the engine, and waits for the engine's answer;
    /// nil when the engine is gone (stopped) or `submit` could not deliver.
    func ask(_ submit: (ReplyToken) -> Bool) async -> EngineReply? {
        await withCheckedContinuation { continuation in
            let token: ReplyToken? = state.withLock { state in
                guard !state.closed else { return nil }
                let token = ReplyToken(state.next)
                state.next += 1
                state.waiting[token] = continuation
                return token
            }
            guard let token else {
                continuation.resume(returning: nil)
                return
            }
            if !submit(token) { resolve(token, nil) }
        }
    }

    /// The engine's answer for `token`; a second answer for the same token is a bug, logged, never
    /// a second resume.
    func resolve(_ token: ReplyToken, _ reply: EngineReply?) {
        let continuation = state.withLock { $0.waiting.removeValue(forKey: token) }
        guard let continuation else {
            logger.error("a reply for a token nobody waits for", metadata: ["token": "\(token)"])
            return
        }
        continuation.resume(returning: reply)
    }

    /// The engine has stopped: everyone still waiting hears so, and later questions at once.
    func close() {
        let waiting = state.withLock { state in
            state.closed = true
            defer { state.waiting = [:] }
            return state.waiting
        }
        for continuation in waiting.values { continuation.resume(returning: nil) }
    }
}
