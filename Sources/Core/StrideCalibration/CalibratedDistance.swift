/// The footpod's distance as the runner's: each increment the footpod reports, times the factor
/// for its speed. A footpod whose cumulative value went back (reset, reconnected, set to zero) is
/// taken from its new value on, never as a negative step.
public struct CalibratedDistance: Sendable, Equatable {
    public private(set) var metres = 0.0
    public private(set) var rawMetres = 0.0
    private var previous: Double?

    public init() {}

    /// Takes the footpod's cumulative distance with the factor for its speed at that moment.
    public mutating func take(footpodDistance: Double, factor: Double) {
        defer { previous = footpodDistance }
        guard let previous, footpodDistance >= previous else { return }
        let step = footpodDistance - previous
        rawMetres += step
        metres += step * factor
    }
}
