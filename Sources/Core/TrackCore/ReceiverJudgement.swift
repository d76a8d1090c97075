/// What the core concluded about a receiver's own numbers: which error fields it ignored, and how
/// much noisier (above 1) or quieter (below 1) than reported its positions and Doppler turned out.
/// For reports (`replay --json`, the corpus table); the core itself reads the parts directly.
public struct ReceiverJudgement: Sendable, Equatable {
    public var ignoredFields: ErrorFieldJudge.Ignored
    public var positionNoiseScale: Double
    public var dopplerNoiseScale: Double

    /// The ignored fields by their gpsd names.
    public var ignoredFieldNames: [String] {
        var names: [String] = []
        if ignoredFields.contains(.eph) { names.append("eph") }
        if ignoredFields.contains(.epxEpy) { names.append("epx/epy") }
        if ignoredFields.contains(.eps) { names.append("eps") }
        return names
    }
}
