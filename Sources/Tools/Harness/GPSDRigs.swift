import Foundation

/// A real gpsd fed by gpsfake on a free port, as in gpsd's own regression tests.
public final class FakeGPSD: @unchecked Sendable {
    public let port: Int
    public let child: ChildProcess

    /// `cycle` is gpsfake's delay between sentences: 0.004 plays a 1 Hz recording about 60x fast.
    public init(
        _ log: String,
        port: Int? = nil,
        cycle: Double,
        directory: String,
        name: String = "gpsfake",
        scope: ProcessScope
    ) throws {
        self.port = port ?? Loopback.freePort()
        child = try ChildProcess(
            "/usr/bin/gpsfake",
            ["-1", "-q", "-W", "600", "-c", "\(cycle)", "-P", "\(self.port)", log],
            directory: directory,
            name: name,
            scope: scope
        )
    }

    /// Waits until gpsd accepts connections: gpsfake starts it asynchronously.
    public func waitUntilListening() async -> Bool {
        let port = self.port
        return await eventually(timeout: 15) { Loopback.isListening(port: port) }
    }

    public func stop() async { await child.stop() }
}

/// `gpspipe -w` beside the daemon: the very JSON gpsd sent, for `wearbridge replay`.
public final class Capture: @unchecked Sendable {
    public let path: String
    public let child: ChildProcess

    public init(port: Int, directory: String, name: String = "capture", scope: ProcessScope) throws {
        // Line-buffered, so that what gpsd sent is in the file when the capture is stopped.
        child = try ChildProcess(
            "/usr/bin/stdbuf",
            ["-oL", "/usr/bin/gpspipe", "-w", "127.0.0.1:\(port)"],
            directory: directory,
            name: name,
            scope: scope
        )
        path = child.outPath
    }

    public func stop() async { await child.stop() }
}
