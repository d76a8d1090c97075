import Config
import Control
import Foundation
import Logging
import ServiceLifecycle
import SessionCore

@testable import Daemon

/// The daemon as a `Service` inside the test process: the same code as `wearbridge run`, with
/// what a separate process cannot take (a sink of the test's own). Shut down gracefully when
/// `body` ends, whatever happened in it; how long that took is handed to `body`'s caller.
func withDaemon<T: Sendable>(
    _ config: WearbridgeConfig,
    sinks: [any SessionSink] = [],
    logger: Logger,
    _ body: (ControlClient) async throws -> T
) async throws -> (value: T, shutdown: Duration) {
    let daemon = try await Daemon.prepare(
        config: config,
        environment: [:],
        sinks: sinks,
        logger: logger
    )
    let group = ServiceGroup(configuration: ServiceGroupConfiguration(services: [daemon], logger: logger))
    return try await withThrowingTaskGroup(of: Void.self) { tasks in
        tasks.addTask { try await group.run() }
        let value: T
        do {
            value = try await body(ControlClient(path: config.controlSocket))
        } catch {
            await group.triggerGracefulShutdown()
            try? await tasks.waitForAll()
            throw error
        }
        let clock = ContinuousClock()
        let started = clock.now
        await group.triggerGracefulShutdown()
        try await tasks.waitForAll()
        return (value, clock.now - started)
    }
}

/// A configuration for a daemon in `directory`, reading gpsd at `gpsdPort`.
func testConfig(directory: String, gpsdPort: Int, autostart: Bool = true) throws -> WearbridgeConfig {
    var config = WearbridgeConfig()
    config.gpsd = .tcp(host: "127.0.0.1", port: gpsdPort)
    config.storageDirectory = "\(directory)/data"
    config.controlSocket = "\(directory)/control.sock"
    config.cues.enabled = false
    config.autostart = autostart
    try FileManager.default.createDirectory(atPath: config.storageDirectory, withIntermediateDirectories: true)
    return config
}
