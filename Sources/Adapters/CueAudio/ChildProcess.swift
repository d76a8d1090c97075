import CSpawn
import Dispatch

#if canImport(Glibc)
import Glibc
#endif

/// A child started with `posix_spawn`: the one way the cues run `espeak-ng` and the players.
///
/// Foundation's `Process` kept a run-loop thread and about 1.5 MB of CoreFoundation code resident
/// for the daemon's life once the first cue had played; this is the few calls it needs.
/// The child gets its own process group (so a kill reaches what it started), default signal
/// dispositions and mask, no descriptor of ours but the three it is given, and its standard
/// output and error as pipes this side reads.
final class ChildProcess: Sendable {
    let pid: pid_t
    /// Read ends of the child's standard output (nil: /dev/null) and standard error.
    private let output: Int32?
    private let errors: Int32

    enum Failure: Error, CustomStringConvertible {
        case notStarted(String)

        var description: String {
            switch self {
            case .notStarted(let reason): reason
            }
        }
    }

    /// Starts `path` with `arguments` (argv[0] is the path) in `environment`; its standard input
    /// is /dev/null, its standard output a pipe if `captureOutput`, else /dev/null.
    init(path: String, arguments: [String], environment: [String: String], captureOutput: Bool) throws(Failure) {
        var errorPipe: [Int32] = [-1, -1]
        var outputPipe: [Int32] = [-1, -1]
        guard cspawn_pipe_cloexec(&errorPipe) == 0 else { throw .notStarted("pipe: \(Self.errnoText())") }
        if captureOutput, cspawn_pipe_cloexec(&outputPipe) != 0 {
            let reason = Self.errnoText()
            close(errorPipe[0])
            close(errorPipe[1])
            throw .notStarted("pipe: \(reason)")
        }
        defer {
            close(errorPipe[1])
            if captureOutput { close(outputPipe[1]) }
        }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        if captureOutput {
            posix_spawn_file_actions_adddup2(&actions, outputPipe[1], 1)
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        }
        posix_spawn_file_actions_adddup2(&actions, errorPipe[1], 2)
        cspawn_addclosefrom(&actions, 3)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        // Every signal back to its default: the daemon ignores SIGPIPE (SwiftNIO), a player must not.
        var defaults = sigset_t()
        sigfillset(&defaults)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(
            &attributes,
            Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)
        )

        let argv = ([path] + arguments).map { strdup($0) }
        let envp = environment.map { strdup("\($0.key)=\($0.value)") }
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var child: pid_t = 0
        let result = posix_spawn(&child, path, &actions, &attributes, argv + [nil], envp + [nil])
        guard result == 0 else {
            close(errorPipe[0])
            if captureOutput { close(outputPipe[0]) }
            throw .notStarted(String(cString: strerror(result)))
        }
        pid = child
        output = captureOutput ? outputPipe[0] : nil
        errors = errorPipe[0]
    }

    deinit {
        if let output { close(output) }
        close(errors)
    }

    /// What the child wrote to its standard output (to its end), the first `errorLimit` bytes of
    /// its standard error, and how it ended; blocks its thread. The standard error is read after
    /// the output: for tools that say a line or two there, as espeak-ng does.
    func capture(errorLimit: Int) -> (output: [UInt8], errors: String, termination: Termination) {
        let bytes = output.map { Self.readAll($0, limit: Int.max) } ?? []
        let said = String(decoding: Self.readAll(errors, limit: errorLimit), as: UTF8.self)
        return (bytes, said, Self.reap(pid))
    }

    /// The first `errorLimit` bytes of the child's standard error and how it ended, waited for on
    /// a thread of its own, never a cooperative one. The pipe is read as the child writes
    /// (a chatty child never blocks on a full pipe), and its end is noticed by `waitpid` too, in
    /// case something the child started still holds the pipe open.
    func finish(errorLimit: Int) async -> (errors: String, termination: Termination) {
        await withCheckedContinuation { continuation in
            // A queue of its own: libdispatch gives it a thread at once, where the global queue,
            // as wide as the cores, would make a blocking wait queue behind other blocking work.
            DispatchQueue(label: "wearbridge.child.\(pid)").async {
                let flags = fcntl(self.errors, F_GETFL)
                _ = fcntl(self.errors, F_SETFL, flags | O_NONBLOCK)
                var said: [UInt8] = []
                var chunk = [UInt8](repeating: 0, count: 4096)
                var open = true
                func drain() {
                    while open {
                        let count = chunk.withUnsafeMutableBytes { read(self.errors, $0.baseAddress, $0.count) }
                        if count > 0 {
                            if said.count < errorLimit { said += chunk[0..<min(count, errorLimit - said.count)] }
                        } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
                            open = false
                        } else if errno == EAGAIN {
                            return
                        }
                    }
                }
                while true {
                    if open {
                        var watch = pollfd(fd: self.errors, events: Int16(POLLIN), revents: 0)
                        if poll(&watch, 1, 100) > 0 { drain() }
                    }
                    if !open {
                        continuation.resume(returning: (String(decoding: said, as: UTF8.self), Self.reap(self.pid)))
                        return
                    }
                    var status: Int32 = 0
                    if waitpid(self.pid, &status, WNOHANG) == self.pid {
                        drain()
                        continuation.resume(
                            returning: (String(decoding: said, as: UTF8.self), Self.termination(status))
                        )
                        return
                    }
                }
            }
        }
    }

    /// SIGKILL to the child's process group and to the child: it has nothing to save.
    static func kill(_ pid: pid_t) {
        _ = Glibc.kill(-pid, SIGKILL)
        _ = Glibc.kill(pid, SIGKILL)
    }

    /// The executable `tool` in the directories of `path` (a PATH value).
    static func find(_ tool: String, in path: String) -> String? {
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(tool)"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }

    enum Termination: Equatable {
        case exited(Int32)
        case killed(Int32)
    }

    /// Waits for `pid`'s end and reaps it (blocks).
    private static func reap(_ pid: pid_t) -> Termination {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 {
            guard errno == EINTR else { return .exited(-1) }
        }
        return termination(status)
    }

    /// A `waitpid` status as an exit code or the signal that ended the child.
    private static func termination(_ status: Int32) -> Termination {
        let signal = status & 0x7f
        return signal == 0 ? .exited((status >> 8) & 0xff) : .killed(signal)
    }

    /// Reads `fd` to its end, keeping the first `limit` bytes.
    private static func readAll(_ fd: Int32, limit: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count > 0 {
                if bytes.count < limit { bytes += chunk[0..<min(count, limit - bytes.count)] }
            } else if count == 0 || errno != EINTR {
                return bytes
            }
        }
    }

    private static func errnoText() -> String { String(cString: strerror(errno)) }
}
