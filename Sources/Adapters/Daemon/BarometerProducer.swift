import Engine
import IIO
import ProcessClock

/// The barometer's readings into the engine: the device found among the IIO devices (by name or
/// path, or the first with a pressure channel), read every `interval` seconds; looked for again
/// every 10 s while there is none or it has gone.
struct BarometerProducer: EngineProducer {
    let role = EngineProducerRole.source
    let name = "barometer"
    /// Nil: the first found.
    let choice: String?
    let interval: Double
    var root = IIODevice.root

    func run(into inbox: EngineInbox) async {
        var absentSaid = false
        while !Task.isCancelled {
            guard let barometer = IIOBarometer.find(choice, root: root) else {
                if !absentSaid {
                    let which = choice.map { "no IIO barometer \($0)" } ?? "no IIO device with a pressure channel"
                    inbox.send(.barometer(.absent(reason: "\(which) under \(root)")))
                    absentSaid = true
                }
                do { try await Task.sleep(for: .seconds(10)) } catch { return }
                continue
            }
            absentSaid = false
            inbox.send(.barometer(.found(name: barometer.device.name, device: barometer.device.path)))
            var failures = 0
            while !Task.isCancelled, failures < 10 {
                do {
                    let kilopascal = try barometer.read()
                    inbox.send(.barometer(.reading(kilopascal: kilopascal, receivedAt: MonotonicClock.now())))
                    failures = 0
                } catch {
                    failures += 1
                    inbox.send(.barometer(.unreadable(reason: error.description, receivedAt: MonotonicClock.now())))
                }
                do { try await Task.sleep(for: .milliseconds(Int(interval * 1000))) } catch { return }
            }
            if failures >= 10 { inbox.send(.barometer(.absent(reason: "\(barometer.device.path) failed 10 reads"))) }
        }
    }
}
