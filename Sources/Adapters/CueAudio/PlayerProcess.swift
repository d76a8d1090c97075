import Foundation

/// One run of a sound player, with a deadline: killed (its whole process group) when it
/// outlives it or its task is cancelled, so a stuck server never holds the cue queue.
struct PlayerProcess {
    let tool: String
    let arguments: [String]
    let environment: [String: String]

    /// Returns what the player wrote to its standard error (warnings such as underruns).
    func run(deadline: Double, started: @Sendable () -> Void) async throws(SoundError) -> String {
        guard let path = ChildProcess.find(tool, in: environment["PATH"] ?? "/usr/bin:/bin") else {
            throw .notInstalled(tool)
        }
        let child: ChildProcess
        do {
            child = try ChildProcess(path: path, arguments: arguments, environment: environment, captureOutput: false)
        } catch {
            throw .failed(tool: tool, status: -1, message: "\(error)")
        }
        started()
        let pid = child.pid
        let ended = await withTaskGroup(of: (errors: String, termination: ChildProcess.Termination)?.self) { group in
            group.addTask { await child.finish(errorLimit: 4096) }
            group.addTask {
                try? await Task.sleep(for: .milliseconds(Int(deadline * 1000)))
                return nil
            }
            let first = await group.next() ?? nil
            if first == nil {
                // Past its deadline, or cancelled: killed, and still reaped (no zombie is left).
                ChildProcess.kill(pid)
                for await _ in group {}
            }
            group.cancelAll()
            return first
        }
        guard let ended else {
            throw Task.isCancelled ? .cancelled : .timedOut(tool: tool, after: deadline)
        }
        guard ended.termination == .exited(0) else {
            let status: Int32
            switch ended.termination {
            case .exited(let code): status = code
            case .killed(let signal): status = 128 + signal
            }
            throw .failed(
                tool: tool,
                status: status,
                message: String(ended.errors.prefix(300)).trimmingCharacters(in: .whitespacesAndNewlines)
            )
        }
        return ended.errors
    }
}
