import ArgumentParser
import Config
import CueAudio
import Daemon
import Foundation

/// `wearbridge say TEXT`: speaks through the cue player the daemon uses, with `[cues]` of the
/// configuration (voice, rate, volume, output, role): a field check of the earpiece and of ducking.
struct SayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "say",
        abstract: "Speak TEXT as a cue (a check of the earpiece, the voice and the ducking).",
        discussion: """
            Uses [cues] of the configuration: voice, rate, volume, output (auto, pulse, alsa), role \
            and alsa_device; --output and --device override the last two. Prints what it took; \
            exit status 1 when the sound output failed.
            """
    )

    @OptionGroup var configOptions: ConfigOptions

    @Option(help: "auto, pulse or alsa (default: [cues] output).")
    var output: String?

    @Option(help: "ALSA device (default: [cues] alsa_device).")
    var device: String?

    @Argument(help: "What to say.")
    var text: [String]

    func run() async throws {
        var config = try configOptions.loadOrExit()
        if let output {
            guard let choice = CuesConfig.Output(rawValue: output) else {
                throw ValidationError("--output must be auto, pulse or alsa")
            }
            config.cues.output = choice
        }
        if let device { config.cues.alsaDevice = device }
        let setup: CueSetup
        do {
            setup = try CueSetup(config: config, environment: ProcessInfo.processInfo.environment)
        } catch {
            StandardError.line("wearbridge: \(error)")
            throw ExitCode(78)
        }
        let voice = setup.voice
        do {
            let spoken = try await voice.speak(text.joined(separator: " "), name: "wearbridge say")
            StandardOutput.line(
                "spoken via \(voice.output.route.rawValue) (voice \(voice.voice)): "
                    + "\(ms(spoken.synthesis)) ms to render, \(ms(spoken.audio)) ms of sound"
            )
        } catch {
            StandardError.line("wearbridge: not spoken: \(error)")
            throw ExitCode(1)
        }
    }

    private func ms(_ seconds: Double) -> Int { Int((seconds * 1000).rounded()) }
}
