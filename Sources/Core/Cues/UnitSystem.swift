/// Kilometres or miles, for what is spoken (the data log is always metric).
public enum UnitSystem: String, Sendable, CaseIterable, Codable {
    case metric
    case imperial

    public static let metresPerMile = 1609.344

    /// Metres in one "distance unit": a kilometre or a mile.
    public var unitLength: Double { self == .metric ? 1000 : Self.metresPerMile }
}
