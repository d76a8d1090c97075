import CueAudio
import Foundation
import Testing

/// espeak-ng in process: real speech, in both languages, and a clear error for a missing voice.
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

    @Test func theWAVFormIsWhatSoxReads() throws {
        let pcm = PCM(samples: (0..<22_050).map { Int16(truncatingIfNeeded: ($0 % 100) * 300) }, sampleRate: 22_050)
        let wav = pcm.wav
        #expect(wav.count == 44 + 44_100)
        #expect(Array(wav[0..<4]) == Array("RIFF".utf8) && Array(wav[8..<16]) == Array("WAVEfmt ".utf8))
        #expect(Array(wav[36..<40]) == Array("data".utf8))
    }
}
