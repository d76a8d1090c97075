import Config
import CueAudio
import CueLanguages
import Cues
import Foundation
import Logging
import ProcessClock
import TOMLConfig

/// `[cues]` made ready at start-up: the catalog of the chosen language (a broken one stops
/// start-up, exit 78) and the voice that speaks it. espeak-ng runs only while a cue is rendered.
public struct CueSetup: Sendable {
    public let catalog: CueCatalog
    public let voice: CueVoice
    public let units: UnitSystem
    public let settings: CueSettings

    public init(config: WearbridgeConfig, environment: [String: String]) throws(ConfigError) {
        let cues = config.cues
        catalog = try CueCatalogs(directory: cues.catalogs).catalog(cues.language)
        units = cues.units
        settings = config.cueSettings
        let output = SoundOutput(
            choice: SoundOutput.Choice(rawValue: cues.output.rawValue) ?? .auto,
            role: cues.role,
            alsaDevice: cues.alsaDevice,
            environment: environment,
            scratchDirectory: environment["RUNTIME_DIRECTORY"] ?? NSTemporaryDirectory()
        )
        voice = CueVoice(
            synthesizer: SpeechSynthesizer(environment: environment),
            output: output,
            voice: cues.voice ?? catalog.voice,
            rate: cues.rate,
            volume: cues.volume,
            clock: { MonotonicClock.now() }
        )
    }
}
