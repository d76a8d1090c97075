/// The thresholds by which the core judges a receiver's own numbers (see `ErrorFieldJudge`,
/// `NoiseScale`, `DopplerCoherence`): physics of receivers, the same whatever the activity.
public struct ReceiverJudging: Sendable, Equatable {
    /// An error field that repeats the same value for this many fixes is a placeholder, not an
    /// estimate, and is treated as absent.
    public var placeholderRepeats: Int
    /// `epx`/`epy` and `eph` disagreeing by more than this factor: `epx`/`epy` are ignored.
    public var fieldDisagreement: Double
    /// Time constant (s) over which the receiver's real noise is learnt from the filter's innovations.
    public var noiseWindow: Double
    /// The learnt noise may make a receiver's reported errors this much smaller or larger.
    public var minNoiseScale: Double
    public var maxNoiseScale: Double
    /// Window (s) over which the Doppler's direction is judged for consistency.
    public var coherenceWindow: Double
    /// Mean velocity vector over mean speed at or above which the Doppler points one way: a walk,
    /// not noise. Random directions give about 0.3 over `coherenceWindow` at 1 Hz.
    public var minCoherence: Double
    /// How long (s) the filter may run on Doppler alone through positions the gate rejected.
    public var dopplerCoastLimit: Double

    /// What consumer receivers need: gpsd's placeholders, `epx`/`epy` that contradict `eph`,
    /// `eps` that tracks a degrading fix, modem Doppler that points anywhere.
    public static let consumer = ReceiverJudging(
        placeholderRepeats: 10,
        fieldDisagreement: 4,
        noiseWindow: 10,
        minNoiseScale: 0.02,
        maxNoiseScale: 10,
        coherenceWindow: 5,
        minCoherence: 0.7,
        dopplerCoastLimit: 30
    )
}
