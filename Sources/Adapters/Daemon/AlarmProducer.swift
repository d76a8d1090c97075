import Engine
import ProcessClock

/// Ticks the engine at the instants it asked for (`.wake`): a race's countdown calls and its "go"
/// land on time, not up to a second late on the heartbeat.
struct AlarmProducer: EngineProducer {
    let role = EngineProducerRole.source
    let name = "alarms"
    let instants: AsyncStream<Double>

    func run(into inbox: EngineInbox) async {
        var last = -Double.infinity
        for await instant in instants {
            // The engine asks again on every tick while a countdown runs: once per instant is enough.
            guard instant > last else { continue }
            last = instant
            let wait = instant - MonotonicClock.now()
            if wait > 0 {
                do { try await Task.sleep(for: .nanoseconds(Int64(wait * 1e9))) } catch { return }
            }
            inbox.send(.tick)
        }
    }
}
