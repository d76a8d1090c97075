import PhoneCore
import PhoneLinkContract
import PhoneLinkDelivery
import Synchronization

/// What reaches the phone's loop: a stream's hello and messages, its end, and the ticks.
enum PhoneLoopInput: Sendable {
    case hello(PhoneConnection, Wearbridge_Link_V1_Hello)
    case message(PhoneConnection, Wearbridge_Link_V1_WearableMessage)
    case closed(PhoneConnection)
    case tick
}

/// The loop's answer to a stream's hello or message.
enum PhoneLoopAnswer: Sendable {
    /// The stream is open: what to write to the wearable.
    case opened(AsyncStream<Wearbridge_Link_V1_PhoneMessage>)
    case refused(PhoneStream.Refusal)
    /// Read the next message.
    case carryOn
    /// End the stream (the loop stopped, a newer stream replaced it, or the inbox failed: `error`).
    case end(error: String?)
}

/// The phone loop's one input stream, as `EngineInbox` is the engine's: producers send, streams ask
/// and wait for the answer (their next message is read only after the last one is committed, so a
/// reply is durable). Once the loop stops, every question still waiting and every later one hears `.end`.
final class PhoneInputs: Sendable {
    struct Item: Sendable {
        var input: PhoneLoopInput
        var token: Int?
    }

    let stream: AsyncStream<Item>
    private let continuation: AsyncStream<Item>.Continuation
    private let waiting = Mutex<(closed: Bool, next: Int, map: [Int: CheckedContinuation<PhoneLoopAnswer, Never>])>(
        (false, 0, [:])
    )
    private let streams = Atomic<Int>(0)
    /// A tick is waiting in the stream: a loop held up (a slow commit) finds one tick, not a backlog.
    private let tickWaiting = Atomic<Bool>(false)

    init() {
        (stream, continuation) = AsyncStream.makeStream(of: Item.self)
    }

    /// A new stream of `wearable`, numbered.
    func connection(of wearable: String) -> PhoneConnection {
        PhoneConnection(id: streams.wrappingAdd(1, ordering: .relaxed).newValue, wearable: wearable)
    }

    /// An input that expects no answer.
    func send(_ input: PhoneLoopInput) {
        continuation.yield(Item(input: input))
    }

    /// Time passed: a tick, unless one is already waiting.
    func tick() {
        guard !tickWaiting.exchange(true, ordering: .acquiringAndReleasing) else { return }
        send(.tick)
    }

    /// The loop took the waiting tick.
    func tookTick() {
        tickWaiting.store(false, ordering: .releasing)
    }

    /// An input and the loop's answer to it.
    func ask(_ input: PhoneLoopInput) async -> PhoneLoopAnswer {
        await withCheckedContinuation { reply in
            let token: Int? = waiting.withLock { state in
                guard !state.closed else { return nil }
                state.next += 1
                state.map[state.next] = reply
                return state.next
            }
            guard let token else { return reply.resume(returning: .end(error: nil)) }
            if case .terminated = continuation.yield(Item(input: input, token: token)) {
                resolve(token, .end(error: nil))
            }
        }
    }

    func resolve(_ token: Int, _ answer: PhoneLoopAnswer) {
        waiting.withLock { $0.map.removeValue(forKey: token) }?.resume(returning: answer)
    }

    /// The loop stopped: no input is taken any more, and whoever waits hears `.end`.
    func close() {
        continuation.finish()
        let left = waiting.withLock { state in
            state.closed = true
            defer { state.map = [:] }
            return Array(state.map.values)
        }
        for reply in left { reply.resume(returning: .end(error: nil)) }
    }
}
