import CueAudio
import Foundation
import Testing

/// The players as the cues run them (`posix_spawn`, no Foundation `Process`): stand-in `aplay`
/// scripts on a PATH of their own, each a way a real player or sound server misbehaves.
@Suite("Sound players")
struct PlayerTests {
    /// A directory with an `aplay` that runs `body` (sh), and the output that runs it.
    private func player(_ body: String, grace: Double = 4) throws -> (SoundOutput, URL) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("player-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let script = directory.appendingPathComponent("aplay")
        try StandInTool.write(body, to: script)
        let output = SoundOutput(
            choice: .alsa,
            environment: ["PATH": "\(directory.path):/usr/bin:/bin", "OUT": directory.path],
            scratchDirectory: directory.path,
            grace: grace
        )
        return (output, directory)
    }

    private let tone = PCM(samples: (0..<1600).map { Int16(truncatingIfNeeded: $0 * 37) }, sampleRate: 16_000)

    @Test func playsTheCueFileAndCountsUnderrunsAndLeavesNothingBehind() async throws {
        let (output, directory) = try player(
            """
            for last; do :; done
            cp "$last" "$OUT/heard.wav"
            echo 'underrun!!! (at least 1.2 ms long)' >&2
            echo 'underrun!!! (at least 0.8 ms long)' >&2
            """
        )
        defer { try? FileManager.default.removeItem(at: directory) }
        let played = try await output.play(tone, name: "test")
        #expect(played.underruns == 2)
        let heard = try [UInt8](Data(contentsOf: directory.appendingPathComponent("heard.wav")))
        #expect(heard == tone.wav)
        let left = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(left.sorted() == ["aplay", "heard.wav"], "the cue's scratch file is removed: \(left)")
    }

    @Test func aFailingPlayerIsItsExitAndWhatItSaid() async throws {
        let (output, directory) = try player("echo 'aplay: main:831: audio open error: No such device' >&2; exit 3")
        defer { try? FileManager.default.removeItem(at: directory) }
        await #expect(
            throws: SoundError.failed(
                tool: "aplay",
                status: 3,
                message: "aplay: main:831: audio open error: No such device"
            )
        ) {
            try await output.play(tone, name: "test")
        }
    }

    @Test func aMissingPlayerIsNamed() async {
        let output = SoundOutput(choice: .alsa, environment: ["PATH": "/nonexistent"])
        await #expect(throws: SoundError.notInstalled("aplay")) { try await output.play(tone, name: "test") }
    }

    /// A player that hangs and has started something that holds its standard error open (as a
    /// sound server it spawned would): killed with its process group at the deadline, and the
    /// play returns then, not when the pipe closes (or after the 120 s the two would sleep).
    @Test func aHungPlayerAndWhatItStartedAreKilledAtTheDeadline() async throws {
        let (output, directory) = try player("sleep 120 & echo $! > \"$OUT/grandchild\"; exec sleep 120", grace: 1)
        defer { try? FileManager.default.removeItem(at: directory) }
        let begin = Date()
        await #expect(throws: SoundError.timedOut(tool: "aplay", after: tone.duration + 1)) {
            try await output.play(tone, name: "test")
        }
        // Not a timing test: the player and its child sleep 120 s, and a loaded machine is slow.
        #expect(Date().timeIntervalSince(begin) < 60)
        let grandchild = try String(contentsOf: directory.appendingPathComponent("grandchild"), encoding: .utf8)
        let pid = Int32(grandchild.trimmingCharacters(in: .whitespacesAndNewlines))!
        // Killed (a zombie until its parent, init here, reaps it): no longer sleeping.
        var gone = false
        for _ in 0..<50 where !gone {
            let state = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8))?
                .split(separator: ")").last?.split(separator: " ").first
            gone = state == nil || state == "Z"
            if !gone { try await Task.sleep(for: .milliseconds(100)) }
        }
        #expect(gone, "the player's own child outlived it")
    }

    /// A player that writes far more to its standard error than a pipe holds still ends, and
    /// what it said is kept to its first 4 KB.
    @Test func aChattyPlayerNeverBlocksOnItsStandardError() async throws {
        let (output, directory) = try player("head -c 1000000 /dev/zero | tr '\\\\0' x >&2; exit 0", grace: 30)
        defer { try? FileManager.default.removeItem(at: directory) }
        // A player blocked on a full pipe would be killed at its deadline (30 s): an error here.
        let played = try await output.play(tone, name: "test")
        #expect(played.underruns == 0)
    }

    /// The player gets standard input, output and error and nothing else of the daemon's: not a
    /// descriptor opened without close-on-exec (a socket, the data log), and signals 1-31 at their
    /// defaults (glibc's posix_spawn leaves its two internal real-time signals ignored).
    @Test func thePlayerInheritsNoDescriptorOfOurs() async throws {
        let (output, directory) = try player(
            """
            [ -e /proc/self/fd/200 ] && echo 'fd 200 inherited' >&2 && exit 9
            ignored=$(awk '/^SigIgn/ { print $2 }' /proc/self/status)
            [ $((0x$ignored & 0x7fffffff)) -eq 0 ] || { echo "ignored: $ignored" >&2; exit 8; }
            exit 0
            """
        )
        defer { try? FileManager.default.removeItem(at: directory) }
        let leaked = open("/dev/null", O_RDONLY)
        #expect(leaked >= 0)
        #expect(dup2(leaked, 200) == 200)
        defer {
            close(200)
            close(leaked)
        }
        let previous = signal(SIGPIPE, SIG_IGN)
        defer { signal(SIGPIPE, previous) }
        try await output.play(tone, name: "test")
    }
}
