import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A real program started by a test, with stdout and stderr in files. Foundation starts it as the
/// leader of its own process group, so signals go to the group: gpsfake's gpsd goes with gpsfake.
///
/// Ended by `stop()` (a `ProcessScope` calls it whatever the test's outcome); anything still
/// running when the test process exits is killed by an `atexit` handler, and `scripts/test.sh`
/// fails the suite if any process of its own outlives it.
public final class ChildProcess: @unchecked Sendable {
    public let process = Process()
    public let outPath: String
    public let errPath: String

    public init(
        _ executable: String,
        _ arguments: [String],
        environment: [String: String]? = nil,
        directory: String,
        name: String,
        scope: ProcessScope
    ) throws {
        outPath = "\(directory)/\(name).out"
        errPath = "\(directory)/\(name).err"
        FileManager.default.createFile(atPath: outPath, contents: nil)
        FileManager.default.createFile(atPath: errPath, contents: nil)
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment { process.environment = environment }
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
        try process.run()
        LiveGroups.shared.add(process.processIdentifier)
        scope.add(self)
    }

    public var pid: Int32 { process.processIdentifier }
    public var isRunning: Bool { process.isRunning }
    public var stdout: String { (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "" }
    public var stderr: String { (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? "" }

    /// To the whole process group (the program and whatever it started), or the program alone.
    public func signal(_ number: Int32, group: Bool = true) {
        if group { kill(-pid, number) }
        kill(pid, number)
    }

    /// Waits for exit; nil if it is still running after `timeout` seconds. Not cut short by
    /// cancellation: a test that timed out still waits for its processes to end.
    @discardableResult
    public func wait(timeout: Double) async -> Int32? {
        let deadline = Date().addingTimeInterval(Patience.guarding(timeout))
        while process.isRunning {
            if Date() > deadline { return nil }
            await waitOut(0.05)
        }
        return process.terminationStatus
    }

    /// SIGTERM to the group, SIGKILL after 3 s; the group is gone afterwards either way.
    public func stop() async {
        if process.isRunning {
            signal(SIGTERM)
            if await wait(timeout: 3) == nil {
                signal(SIGKILL)
                await wait(timeout: 3)
            }
        }
        // The leader may have gone first (gpsfake) and left members (gpsd) behind.
        kill(-pid, SIGKILL)
        LiveGroups.shared.remove(pid)
    }

    deinit {
        if process.isRunning { signal(SIGKILL) }
    }
}

/// The processes one test started: all stopped when the test's body ends, passed or failed.
public final class ProcessScope: @unchecked Sendable {
    private let lock = NSLock()
    private var children: [ChildProcess] = []

    public func add(_ child: ChildProcess) {
        lock.withLock { children.append(child) }
    }

    /// Newest first: a capture before the gpsd it reads, the daemon before the gpsd it uses.
    public func stopAll() async {
        let all = lock.withLock { children.reversed() }
        for child in all { await child.stop() }
    }
}

/// Runs `body`, then stops every process started in its scope, whatever happened in it.
public func withProcessScope<T>(_ body: (ProcessScope) async throws -> T) async throws -> T {
    let scope = ProcessScope()
    do {
        let value = try await body(scope)
        await scope.stopAll()
        return value
    } catch {
        await scope.stopAll()
        throw error
    }
}

/// Process groups started by this test process and not stopped yet: killed at exit.
public final class LiveGroups: @unchecked Sendable {
    public static let shared = LiveGroups()
    private let lock = NSLock()
    private var groups: Set<Int32> = []

    private init() {
        atexit {
            for group in LiveGroups.shared.snapshot() { kill(-group, SIGKILL) }
        }
    }

    public func add(_ group: Int32) { lock.withLock { _ = groups.insert(group) } }
    public func remove(_ group: Int32) { lock.withLock { _ = groups.remove(group) } }
    public func snapshot() -> Set<Int32> { lock.withLock { groups } }
}

/// A sleep that cancellation does not cut short (polling while a process ends).
public func waitOut(_ seconds: Double) async {
    await withCheckedContinuation { continuation in
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { continuation.resume() }
    }
}

/// Runs a command to completion.
public func runCommand(
    _ executable: String,
    _ arguments: [String],
    environment: [String: String]? = nil
)
    throws -> (status: Int32, out: String, err: String)
{
    try Command.run(executable, arguments, environment: environment)
}

/// Polls `condition` until it holds or `timeout` passes.
public func eventually(
    timeout: Double,
    every interval: Double = 0.1,
    _ condition: () async throws -> Bool
) async rethrows -> Bool {
    let deadline = Date().addingTimeInterval(Patience.guarding(timeout))
    while Date() < deadline, !Task.isCancelled {
        if try await condition() { return true }
        await waitOut(interval)
    }
    return try await condition()
}

/// The checkout this file is in: the nearest folder above it that holds `Package.swift`.
public let repositoryRoot: URL = {
    var url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    while url.path != "/", !FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) {
        url.deleteLastPathComponent()
    }
    return url
}()

/// The recordings the tests replay, in the repository's `data/`.
public let recordings = repositoryRoot.appendingPathComponent("data").path
