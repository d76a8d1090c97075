/// Where a session's altitude comes from.
public enum ElevationSource: String, Sendable, Equatable, CaseIterable {
    /// No altitude yet: a receiver without one, an indoor session without a barometer.
    case none
    /// The receiver's altitude alone.
    case gps
    /// A barometer's, its level calibrated against GPS.
    case barometer
}
