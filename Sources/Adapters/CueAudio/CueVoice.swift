import Foundation
import Synchronization

/// Text to the wearer's ear: espeak-ng renders it, the sound output plays it, and what it took
/// is measured. One cue at a time: the caller waits for each to end.
public struct CueVoice: Sendable {
    /// What speaking one cue took.
    public struct Spoken: Sendable {
        /// Seconds spent rendering.
        public var synthesis: Double
        /// Seconds of sound.
        public var audio: Double
        /// Monotonic instant the player was launched with it.
        public var startedAt: Double
        /// Times the output ran dry while it played (ALSA underruns; a sound server reports none).
        public var underruns: Int
        /// Seconds from the player's launch to its end.
        public var playing: Double
    }

    public let synthesizer: SpeechSynthesizer
    public var output: SoundOutput
    public var voice: String
    /// Words per minute.
    public var rate: Int
    /// Percent of full level.
    public var volume: Int
    /// The monotonic clock (CLOCK_MONOTONIC seconds, comparable with the engine's instants).
    public var clock: @Sendable () -> Double

    public init(
        synthesizer: SpeechSynthesizer,
        output: SoundOutput,
        voice: String,
        rate: Int = 175,
        volume: Int = 100,
        clock: @escaping @Sendable () -> Double
    ) {
        self.synthesizer = synthesizer
        self.output = output
        self.voice = voice
        self.rate = rate
        self.volume = volume
        self.clock = clock
    }

    /// Renders and plays `text` to its end.
    public func speak(_ text: String, name: String) async throws -> Spoken {
        let begin = clock()
        let pcm = try await synthesizer.render(text, voice: voice, rate: rate, volume: volume)
        let rendered = clock()
        let startedAt = Mutex<Double?>(nil)
        let clock = self.clock
        let played = try await output.play(pcm, name: name) { startedAt.withLock { $0 = clock() } }
        let launched = startedAt.withLock { $0 } ?? rendered
        return Spoken(
            synthesis: rendered - begin,
            audio: pcm.duration,
            startedAt: launched,
            underruns: played.underruns,
            playing: clock() - launched
        )
    }
}
