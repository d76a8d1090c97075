/// The engine's heartbeat: GPS loss by silence, the batch commit, the watchdog, storage retries.
struct TickProducer: EngineProducer {
    let role = EngineProducerRole.source
    let name = "ticks"
    /// Seconds between ticks.
    let interval: Double

    func run(into inbox: EngineInbox) async {
        inbox.send(.tick)
        while !Task.isCancelled {
            do { try await Task.sleep(for: .milliseconds(Int(interval * 1000))) } catch { return }
            inbox.send(.tick)
        }
    }
}
