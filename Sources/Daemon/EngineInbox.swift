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

/// Something that feeds the engine: the gpsd link, the strap link, the clock, the control socket
/// (and the phone link later). Registered with the daemon, each on a task of its own.
protocol EngineProducer: Sendable {
    var name: String { get }
    /// Feeds `inbox` until the task is cancelled (the daemon's graceful shutdown).
    func run(into inbox: EngineInbox) async
}
