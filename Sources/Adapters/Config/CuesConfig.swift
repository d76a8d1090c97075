import Cues

/// `[cues]`: what the coach in the ear says, in which language and voice, and where it is heard.
public struct CuesConfig: Sendable, Equatable {
    /// Where cues are played: the sound server when its socket is there, else ALSA; or one of them.
    public enum Output: String, Sendable, CaseIterable {
        case auto
        case pulse
        case alsa
    }

    public var enabled = true
    public var language = "en"
    /// An espeak-ng voice; nil: the catalog's own.
    public var voice: String?
    /// Words per minute.
    public var rate = 175
    /// Percent of full level.
    public var volume = 100
    public var units = UnitSystem.metric
    public var output = Output.auto
    /// The cue stream's media.role: the sound server's ducking trigger.
    public var role = "announce"
    public var alsaDevice = "default"
    /// A directory of extra or replacement catalogs (`LANGUAGE.toml`).
    public var catalogs: String?
    /// The rules' settings, zones from `[strap] max_heart_rate` added by `WearbridgeConfig`.
    public var rules = CueSettings()

    public init() {}
}
