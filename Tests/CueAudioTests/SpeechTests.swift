import CueAudio
import Foundation
import Testing

/// espeak-ng, a child per cue: real speech, in both languages, and a clear error for a missing
/// voice, a missing program and output that is not sound.
@Suite("Speech synthesis")
struct SpeechTests {
    let synthesizer = SpeechSynthesizer()

    @Test func rendersSpeechInEnglishAndGerman() async throws {
        let english = try await synthesizer.render(
            "Split 3, 5 minutes 1 second",
            voice: "en-gb",
            rate: 175,
            volume: 100
        )
        let german = try await synthesizer.render("Abschnitt 3, 5 Minuten", voice: "de", rate: 175, volume: 100)
        for pcm in [english, german] {
            #expect(pcm.sampleRate == 22_050)
            #expect(pcm.duration > 0.8 && pcm.duration < 6)
            let peak = pcm.samples.map { abs(Int($0)) }.max() ?? 0
            #expect(peak > 3000)
        }
        // Half the volume is half the level.
        let quiet = english.scaled(percent: 50)
        let loud = english.samples.map { abs(Int($0)) }.max() ?? 0
        let soft = quiet.samples.map { abs(Int($0)) }.max() ?? 0
        #expect(abs(Double(soft) / Double(loud) - 0.5) < 0.001)
        // A faster rate is shorter.
        let fast = try await synthesizer.render("Split 3, 5 minutes 1 second", voice: "en-gb", rate: 350, volume: 100)
        #expect(fast.duration < english.duration * 0.75)
    }

    @Test func anUnknownVoiceIsAClearError() async {
        await #expect {
            _ = try await synthesizer.render("hello", voice: "no-such-voice", rate: 175, volume: 100)
        } throws: { "\($0)".contains("no-such-voice") }
        // And the next cue with a good voice still works.
        let pcm = try? await synthesizer.render("hello", voice: "en", rate: 175, volume: 100)
        #expect((pcm?.duration ?? 0) > 0.2)
    }

    @Test func aCueThatLooksLikeAnOptionIsSpokenNotObeyed() async throws {
        // "-w FILE" would have espeak-ng write a file and print nothing to its standard output.
        let pcm = try await synthesizer.render("-w /tmp/no", voice: "en", rate: 175, volume: 100)
        #expect(pcm.duration > 0.3)
        #expect(!FileManager.default.fileExists(atPath: "/tmp/no"))
    }

    @Test func aHungSoundServerDoesNotHoldTheRender() async throws {
        // A socket that accepts and never answers, as a stopped PulseAudio does.
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("hung-pulse-\(getpid())").path
        unlink(path)
        let server = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer {
            close(server)
            unlink(path)
        }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(server, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        #expect(bound == 0 && listen(server, 8) == 0)
        var environment = ProcessInfo.processInfo.environment
        environment["PULSE_SERVER"] = "unix:\(path)"
        // The deadline bounds a hang; it is long enough for espeak-ng on a loaded machine.
        let synthesizer = SpeechSynthesizer(environment: environment, deadline: 15)
        let pcm = try await synthesizer.render("hello", voice: "en", rate: 175, volume: 100)
        #expect(pcm.duration > 0.2)
    }

    @Test func aMissingProgramIsAClearErrorNotAHang() async {
        let nowhere = SpeechSynthesizer(environment: ["PATH": "/nonexistent"])
        await #expect {
            _ = try await nowhere.render("hello", voice: "en", rate: 175, volume: 100)
        } throws: { "\($0)".contains("espeak-ng is not installed") }
    }

    @Test func aChildThatHangsIsKilledAtItsDeadline() async throws {
        // A stand-in "espeak-ng" that lists a voice, then never answers.
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hung-espeak-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = directory.appendingPathComponent("espeak-ng")
        try StandInTool.write(
            """
            [ "$1" = --voices ] && { echo 'Pty Language Age/Gender VoiceName File Other Languages'; \
            echo ' 5  en  --/M  English  gmw/en'; exit 0; }
            exec sleep 120
            """,
            to: script
        )
        let hung = SpeechSynthesizer(environment: ["PATH": "\(directory.path):/usr/bin:/bin"], deadline: 1)
        let begin = Date()
        await #expect {
            _ = try await hung.render("hello", voice: "en", rate: 175, volume: 100)
        } throws: { "\($0)".contains("killed by signal 9") }
        // Not a timing test: the stand-in sleeps 120 s, and a loaded machine is slow (11 s once,
        // beside the arm64 builds, for a 1 s deadline).
        #expect(Date().timeIntervalSince(begin) < 60)
    }

    @Test func voicesAreListedByNameFileAndLanguage() {
        let listing = """
            Pty Language       Age/Gender VoiceName          File                 Other Languages
             5  de              --/M      German             gmw/de
             2  en-gb           --/M      English_(Great_Britain) gmw/en          (en 2)
            """
        let voices = SpeechSynthesizer.voices(in: listing)
        #expect(voices == ["de", "german", "gmw/de", "en-gb", "english_(great_britain)", "gmw/en", "en"])
    }

    @Test func theWAVThatEspeakStreamsIsRead() throws {
        // Its sizes are placeholders past the end: the samples run to the end of the bytes.
        let pcm = PCM(samples: [0, 1000, -1000, Int16.max, Int16.min], sampleRate: 22_050)
        var streamed = pcm.wav
        for at in [4, 40] { streamed.replaceSubrange(at..<at + 4, with: [0x00, 0xf0, 0xff, 0x7f]) }
        #expect(try PCM(wav: streamed) == pcm)
        #expect(try PCM(wav: pcm.wav) == pcm)
        // An odd byte at the end is half a sample: left out.
        #expect(try PCM(wav: streamed + [7]) == pcm)
    }

    @Test func bytesThatAreNotSpeechAreNamedErrors() {
        let wav = PCM(samples: [1, 2, 3], sampleRate: 22_050).wav
        #expect(throws: WAVError.notWAV) { try PCM(wav: Array("hello".utf8)) }
        #expect(throws: WAVError.truncated("data")) { try PCM(wav: Array(wav.prefix(36))) }
        #expect(throws: WAVError.truncated("fmt ")) { try PCM(wav: Array(wav.prefix(30))) }
        var stereo = wav
        stereo[22] = 2
        #expect(throws: WAVError.unsupported(format: 1, channels: 2, bits: 16)) { try PCM(wav: stereo) }
        // Every cut of a whole file is an error or a shorter sound, never a crash.
        for length in 0..<wav.count {
            if let read = try? PCM(wav: Array(wav.prefix(length))) { #expect(read.samples.count <= 3) }
        }
    }

    @Test func theWAVFormIsWhatSoxReads() throws {
        let pcm = PCM(samples: (0..<22_050).map { Int16(truncatingIfNeeded: ($0 % 100) * 300) }, sampleRate: 22_050)
        let wav = pcm.wav
        #expect(wav.count == 44 + 44_100)
        #expect(Array(wav[0..<4]) == Array("RIFF".utf8) && Array(wav[8..<16]) == Array("WAVEfmt ".utf8))
        #expect(Array(wav[36..<40]) == Array("data".utf8))
    }
}
