import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// One run of a sound player, with a deadline: killed (its whole process group) when it
/// outlives it or its task is cancelled, so a stuck server never holds the cue queue.
struct PlayerProcess {
    let tool: String
    let arguments: [String]
    let environment: [String: String]

    /// Returns what the player wrote to its standard error (warnings such as underruns).
    func run(deadline: Double, started: @Sendable () -> Void) async throws(SoundError) -> String {
        guard let path = Self.find(tool, in: environment["PATH"] ?? "/usr/bin:/bin") else { throw .notInstalled(tool) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        let (exits, exited) = AsyncStream.makeStream(of: Int32.self, bufferingPolicy: .bufferingNewest(1))
        process.terminationHandler = { finished in
            exited.yield(finished.terminationStatus)
            exited.finish()
        }
        do {
            try process.run()
        } catch {
            throw .failed(tool: tool, status: -1, message: "\(error)")
        }
        started()
        let pid = process.processIdentifier
        let status = await withTaskGroup(of: Int32?.self) { group in
            group.addTask {
                for await status in exits { return status }
                return nil
            }
            group.addTask {
                try? await Task.sleep(for: .milliseconds(Int(deadline * 1000)))
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
        guard let status else {
            Self.kill(pid)
            // Reap it, so no zombie is left.
            for await _ in exits {}
            throw Task.isCancelled ? .cancelled : .timedOut(tool: tool, after: deadline)
        }
        let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile().prefix(4096), as: UTF8.self)
        guard status == 0 else {
            throw .failed(
                tool: tool,
                status: status,
                message: String(said.prefix(300)).trimmingCharacters(in: .whitespacesAndNewlines)
            )
        }
        return said
    }

    /// A player has nothing to save: SIGKILL, to it and anything it started. Also what ends a
    /// render that outlived its deadline (`SpeechSynthesizer`).
    static func kill(_ pid: Int32) {
        _ = Glibc.kill(-pid, SIGKILL)
        _ = Glibc.kill(pid, SIGKILL)
    }

    /// The executable `tool` in the directories of `path` (a PATH value), as the players and
    /// espeak-ng are found.
    static func find(_ tool: String, in path: String) -> String? {
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(tool)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}
