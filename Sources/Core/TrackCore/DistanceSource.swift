/// Where a session's distance comes from: the sky outdoors, a footpod or a treadmill indoors.
/// Stored with the session and shown with its figures, so that a number is never mistaken for
/// another kind of measurement.
public enum DistanceSource: String, Sendable, Equatable, Codable, CaseIterable {
    case gps, footpod, treadmill
}
