import Logging
import SessionCore
import Synchronization

/// The engine's announcements to every registered sink, each behind a bounded buffer of its own.
///
/// `publish` never waits: a sink that is full loses the oldest announcement it has not taken yet
/// (stale news is worth least), counted and logged (the first time, then every 100th).
final class SinkFanOut: Sendable {
    private struct Outlet: Sendable {
        let sink: any SessionSink
        let stream: AsyncStream<SessionNews>
        let continuation: AsyncStream<SessionNews>.Continuation
    }

    private let outlets: [Outlet]
    private let dropped: Mutex<[Int]>
    private let finished: (stream: AsyncStream<Void>, continuation: AsyncStream<Void>.Continuation)
    private let drainTimeout: Duration
    private let logger: Logger

    init(sinks: [any SessionSink], drainTimeout: Duration = .seconds(2), logger: Logger) {
        outlets = sinks.map { sink in
            let (stream, continuation) = AsyncStream.makeStream(
                of: SessionNews.self,
                bufferingPolicy: .bufferingNewest(max(1, sink.capacity))
            )
            return Outlet(sink: sink, stream: stream, continuation: continuation)
        }
        dropped = Mutex(Array(repeating: 0, count: sinks.count))
        finished = AsyncStream.makeStream(of: Void.self)
        self.drainTimeout = drainTimeout
        self.logger = logger
    }

    /// Called from the engine's loop.
    func publish(_ news: SessionNews) {
        for (index, outlet) in outlets.enumerated() {
            guard case .dropped = outlet.continuation.yield(news) else { continue }
            let count = dropped.withLock { counts in
                counts[index] += 1
                return counts[index]
            }
            if count == 1 || count.isMultiple(of: 100) {
                logger.warning(
                    "sink is behind, oldest announcements dropped",
                    metadata: [
                        "sink": "\(outlet.sink.name)", "capacity": "\(outlet.sink.capacity)", "dropped": "\(count)",
                    ]
                )
            }
        }
    }

    /// No more announcements: sinks drain what they hold.
    func finish() {
        for outlet in outlets { outlet.continuation.finish() }
        finished.continuation.finish()
    }

    /// Runs every sink until `finish`, then gives them `drainTimeout` to drain and cancels the rest.
    func run() async {
        await withTaskGroup(of: Bool.self) { group in
            for outlet in outlets {
                group.addTask {
                    for await news in outlet.stream {
                        if Task.isCancelled { break }
                        await outlet.sink.consume(news)
                    }
                    return true
                }
            }
            for await _ in finished.stream {}
            var running = outlets.count
            guard running > 0 else { return }
            let timeout = drainTimeout
            group.addTask {
                try? await Task.sleep(for: timeout)
                return false
            }
            while let sinkEnded = await group.next() {
                if sinkEnded {
                    running -= 1
                    if running == 0 { break }
                } else {
                    logger.warning("sinks still busy at shutdown, cancelled", metadata: ["sinks": "\(running)"])
                    break
                }
            }
            group.cancelAll()
        }
        let counts = dropped.withLock { $0 }
        for (outlet, count) in zip(outlets, counts) where count > 0 {
            logger.notice(
                "announcements a sink missed",
                metadata: ["sink": "\(outlet.sink.name)", "dropped": "\(count)"]
            )
        }
    }
}
