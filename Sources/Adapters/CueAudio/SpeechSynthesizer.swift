import Foundation
import Synchronization

/// espeak-ng rendering text to PCM, in a child process (`espeak-ng --stdout`) that lives for one
/// cue. Linked into the daemon, its library brought some thirty audio libraries (PulseAudio, X11,
/// codecs) that stayed resident for the daemon's life, about 3 MB; a child holds them only while
/// it renders. Each render runs on a queue of its own, never on a cooperative thread.
public final class SpeechSynthesizer: Sendable {
    /// Renders block (a child process, its output read to the end); one at a time.
    private let queue = DispatchQueue(label: "wearbridge.speech")
    private let environment: [String: String]
    /// Every voice name, voice file and language the installed espeak-ng speaks, listed at the
    /// first cue: the program falls back to its default voice for an unknown one without a word.
    private let known = Mutex<Set<String>?>(nil)
    /// Seconds a render may take before the child is killed (a cue is a few seconds of sound,
    /// rendered in tens of milliseconds).
    private let deadline: Double

    public init(environment: [String: String] = ProcessInfo.processInfo.environment, deadline: Double = 10) {
        // The program opens a sound server connection at start even when it writes to its standard
        // output; a hung server would hang every render. It is given none to find.
        var environment = environment
        environment["PULSE_SERVER"] = "unix:/nonexistent/espeak-ng-renders-to-stdout"
        environment["PULSE_CLIENTCONFIG"] = "/dev/null"
        self.environment = environment
        self.deadline = deadline
    }

    /// `rate` in words per minute (80...450); `volume` in percent of full level.
    public func render(_ text: String, voice: String, rate: Int, volume: Int) async throws -> PCM {
        let pcm = try await withCheckedThrowingContinuation { (done: CheckedContinuation<PCM, any Error>) in
            queue.async {
                done.resume(
                    with: Result { () throws(SpeechError) -> PCM in
                        try self.renderNow(text, voice: voice, rate: rate)
                    }
                )
            }
        }
        return pcm.scaled(percent: volume)
    }

    private func renderNow(_ text: String, voice: String, rate: Int) throws(SpeechError) -> PCM {
        try check(voice)
        // The text after "--": a cue that begins with "-" is spoken, not taken for an option.
        let arguments = ["--stdout", "-v", voice, "-s", String(min(450, max(80, rate))), "--", text]
        let output = try ChildRun(tool: "espeak-ng", environment: environment).capture(arguments, deadline: deadline)
        do {
            return try PCM(wav: output)
        } catch {
            throw .synthesis("its output is not sound: \(error)")
        }
    }

    /// Throws unless espeak-ng has `voice` as a name ("German"), a file ("gmw/de") or a language
    /// code as `espeak-ng -v` takes it ("en-gb").
    private func check(_ voice: String) throws(SpeechError) {
        let listed = try known.withLock { (known) throws(SpeechError) -> Set<String> in
            if let known { return known }
            let listing = try ChildRun(tool: "espeak-ng", environment: environment)
                .capture(["--voices"], deadline: deadline)
            let found = Self.voices(in: String(decoding: listing, as: UTF8.self))
            known = found
            return found
        }
        guard listed.contains(voice.lowercased()) else {
            throw .voice(voice, "no voice of that name or language (espeak-ng --voices)")
        }
    }

    /// The names, files and languages in `espeak-ng --voices`: a header, then "Pty Language
    /// Age/Gender VoiceName File Other-languages" per voice.
    public static func voices(in listing: String) -> Set<String> {
        var found = Set<String>()
        for line in listing.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 5 else { continue }
            for field in [fields[1], fields[3], fields[4]] { found.insert(field.lowercased()) }
            // Other languages, as "(en 2)": the language, then its priority.
            for other in fields.dropFirst(5) where other.hasPrefix("(") {
                found.insert(other.dropFirst().lowercased())
            }
        }
        return found
    }
}

/// One run of a command-line tool whose standard output is the result, with a deadline: killed
/// when it outlives it, so a stuck child never holds the cue queue. Blocks its thread.
private struct ChildRun {
    let tool: String
    let environment: [String: String]

    func capture(_ arguments: [String], deadline: Double) throws(SpeechError) -> [UInt8] {
        guard let path = ChildProcess.find(tool, in: environment["PATH"] ?? "/usr/bin:/bin") else {
            throw .initialization("\(tool) is not installed (apt install espeak-ng)")
        }
        let child: ChildProcess
        do {
            child = try ChildProcess(path: path, arguments: arguments, environment: environment, captureOutput: true)
        } catch {
            throw .initialization("\(tool) could not be started: \(error)")
        }
        let pid = child.pid
        let killer = DispatchWorkItem { ChildProcess.kill(pid) }
        // On a queue of its own, so that the kill is never late behind blocking work elsewhere.
        let queue = DispatchQueue(label: "wearbridge.espeak-deadline.\(pid)")
        queue.asyncAfter(deadline: .now() + deadline, execute: killer)
        let (bytes, said, termination) = child.capture(errorLimit: 300)
        killer.cancel()
        guard termination == .exited(0) else {
            let how: String
            switch termination {
            case .exited(let code): how = "exit \(code)"
            case .killed(let signal): how = "killed by signal \(signal)"
            }
            throw .synthesis("\(tool) failed (\(how)): \(said.trimmingCharacters(in: .whitespacesAndNewlines))")
        }
        return bytes
    }
}

/// Why speech could not be rendered.
public enum SpeechError: Error, CustomStringConvertible {
    case initialization(String)
    case voice(String, String)
    case synthesis(String)

    public var description: String {
        switch self {
        case .initialization(let reason): "espeak-ng did not start: \(reason)"
        case .voice(let voice, let reason): "espeak-ng has no voice \"\(voice)\": \(reason)"
        case .synthesis(let reason): "espeak-ng could not render the text: \(reason)"
        }
    }
}
