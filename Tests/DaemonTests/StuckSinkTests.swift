import Control
import ControlProtocol
import Daemon
import Foundation
import Harness
import Logging
import SessionCore
import Store
import Testing

/// A sink that never returns (a hung sound server, say): it waits until cancelled.
private struct StuckSink: SessionSink {
    let name = "stuck"
    let capacity = 2
    let taken = Counter()

    func consume(_ news: SessionNews) async {
        taken.increment()
        try? await Task.sleep(for: .seconds(86_400))
    }
}

private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func increment() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}

/// Sinks sit behind bounded buffers on tasks of their own: one that blocks forever costs the
/// engine and the writer nothing; what it misses is counted and logged; shutdown does not wait
/// for it beyond its drain time.
@Suite("A stuck sink", .serialized, .timeLimit(.minutes(3)))
struct StuckSinkTests {
    @Test func fixesKeepBeingWrittenAndStatusAnswersWhileASinkIsStuck() async throws {
        let directory = try temporaryDirectory("stuck")
        let records = LogRecords()
        let sink = StuckSink()
        try await withProcessScope { scope in
            let gpsd = try FakeGPSD(
                "\(recordings)/gps/park_loop_run.nmea",
                cycle: 0.008,
                directory: directory,
                scope: scope
            )
            #expect(await gpsd.waitUntilListening())
            let config = try testConfig(directory: directory, gpsdPort: gpsd.port)
            let (_, shutdown) = try await withDaemon(config, sinks: [sink], logger: records.logger()) { control in
                func status() async throws -> StatusReport? {
                    try await control.send(ControlRequest(command: .status)).status
                }
                #expect(try await eventually(timeout: 90) { (try await status()?.distance ?? 0) > 500 })
                let log = try SessionLog.openReadOnly(directory: config.storageDirectory)
                let session = try #require(try await status()?.sessionID)
                let before = try log.detail(matching: session).fixCount
                try await Task.sleep(for: .seconds(3))
                let after = try log.detail(matching: session).fixCount
                #expect(after > before + 20, "fixes written while the sink is stuck: \(before) -> \(after)")
                // Commands are answered as ever.
                let pause = try await control.send(ControlRequest(command: .pause, id: "p"))
                #expect(pause.ok && pause.state == "paused", "\(pause)")
            }
            #expect(sink.taken.value == 1, "the sink took one and never returned")
            let dropped = records.with("sink is behind, oldest announcements dropped")
            #expect(!dropped.isEmpty && dropped.allSatisfy { $0.metadata["sink"] == "stuck" })
            let missed = records.with("announcements a sink missed")
            #expect(missed.map { $0.metadata["sink"] } == ["stuck"], "only the stuck sink missed any: \(missed)")
            #expect(!records.with("sinks still busy at shutdown, cancelled").isEmpty)
            #expect(shutdown < .seconds(10), "shutdown waited \(shutdown) for a stuck sink")
            // The journal, a sink that keeps up, heard every event.
            #expect(!records.with("session event").isEmpty)
        }
    }
}
