import ArgumentParser
import Foundation
import Harness

#if canImport(Glibc)
import Glibc
#endif

/// Peak RSS of `wearbridge replay` over a generated 12-hour 10 Hz session.
struct Memory: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Peak RSS of `wearbridge replay` on a generated 12-hour 10 Hz session (goal: < 50 MB)."
    )

    @Option(help: "Hours of recording to generate.")
    var hours = 12.0

    @Option(help: "Fix rate in Hz.")
    var rate = 10.0

    @Option(help: "The wearbridge executable; by default the one beside this benchmark.")
    var wearbridge: String?

    func run() throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("wearbridge-bench-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("long.jsonl").path
        let generated = try SyntheticSession(hours: hours, rate: rate).write(to: path)
        let size = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        StandardOutput.line(
            "generated \(generated) fixes (\(fmt(hours, 1)) h at \(fmt(rate, 0)) Hz), "
                + "\(size / 1_000_000) MB"
        )

        let executable = wearbridge ?? Command.wearbridge
        let start = ContinuousClock.now
        let (status, maxRSSKiB) = try Spawn.run([executable, "replay", "--json", "--activity", "running", path])
        let elapsed = (ContinuousClock.now - start).seconds
        guard status == 0 else { throw ValidationError("\(executable) exited with status \(status)") }
        StandardOutput.line(
            "replay took \(fmt(elapsed, 1)) s; peak RSS \(fmt(Double(maxRSSKiB) / 1024, 1)) MB"
                + " (goal: < 50 MB)"
        )
    }
}

/// Runs a child process and reports its exit status and peak resident memory.
enum Spawn {
    static func run(_ arguments: [String]) throws -> (status: Int32, maxRSSKiB: Int) {
        var pid = pid_t()
        var fileActions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&fileActions)
        defer { posix_spawn_file_actions_destroy(&fileActions) }
        posix_spawn_file_actions_addopen(&fileActions, 1, "/dev/null", O_WRONLY, 0)
        let argv = arguments.map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        let result = posix_spawn(&pid, arguments[0], &fileActions, nil, argv, environ)
        guard result == 0 else {
            throw ValidationError("cannot start \(arguments[0]): \(String(cString: strerror(result)))")
        }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 {
            guard errno == EINTR else { throw ValidationError("wait4: \(String(cString: strerror(errno)))") }
        }
        let exitStatus = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return (exitStatus, Int(usage.ru_maxrss))
    }
}
