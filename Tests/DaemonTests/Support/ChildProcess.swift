import Foundation
import Harness

#if canImport(Glibc)
import Glibc
#endif

/// A real program started by a test, with stdout and stderr in files; signals reach its children
/// too (gpsfake starts gpsd).
final class ChildProcess: @unchecked Sendable {
    let process = Process()
    let outPath: String
    let errPath: String

    init(
        _ executable: String,
        _ arguments: [String],
        environment: [String: String]? = nil,
        directory: String,
        name: String
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
    }

    var pid: Int32 { process.processIdentifier }
    var isRunning: Bool { process.isRunning }
    var stdout: String { (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "" }
    var stderr: String { (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? "" }

    func signal(_ number: Int32) {
        if number == SIGKILL {
            for child in children { kill(child, SIGKILL) }
        }
        kill(pid, number)
    }

    /// Direct children, from /proc.
    private var children: [Int32] {
        let path = "/proc/\(pid)/task/\(pid)/children"
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        return text.split(separator: " ").compactMap { Int32($0) }
    }

    /// Waits for exit; nil if it is still running after `timeout` seconds.
    @discardableResult
    func wait(timeout: Double) async -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning {
            if Date() > deadline { return nil }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return process.terminationStatus
    }

    func stop() async {
        guard process.isRunning else { return }
        signal(SIGTERM)
        if await wait(timeout: 3) == nil {
            signal(SIGKILL)
            await wait(timeout: 3)
        }
    }

    deinit {
        if process.isRunning { signal(SIGKILL) }
    }
}

/// Runs a command to completion.
func runCommand(
    _ executable: String,
    _ arguments: [String],
    environment: [String: String]? = nil
)
    throws -> (status: Int32, out: String, err: String)
{
    try Command.run(executable, arguments, environment: environment)
}

/// Polls `condition` until it holds or `timeout` passes.
func eventually(
    timeout: Double,
    every interval: Double = 0.1,
    _ condition: () async throws -> Bool
) async rethrows -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if try await condition() { return true }
        try? await Task.sleep(for: .milliseconds(Int(interval * 1000)))
    }
    return try await condition()
}

/// A fresh directory under /tmp (Unix socket paths must stay short).
func temporaryDirectory(_ name: String) throws -> String {
    let path = "/tmp/wbt-\(name)-\(UUID().uuidString.prefix(8))"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

/// The shared benchmark data beside the repository.
let sharedData = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("shared/benchmarks").path
