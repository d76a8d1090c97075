/// Where a session's distance comes from: the sky outdoors, a footpod, a treadmill or the
/// wearable's own accelerometer (steps) indoors. Stored with the session and shown with its
/// figures, so that a number is never mistaken for another kind of measurement.
public enum DistanceSource: String, Sendable, Equatable, Codable, CaseIterable {
    case gps, footpod, treadmill, steps

    /// A count of strides the GPS calibrates (a footpod's, or the steps the IMU counts): it carries
    /// an outdoor session through gaps and takes an indoor session's distance at its learnt factor.
    public var countsStrides: Bool { self == .footpod || self == .steps }
}
