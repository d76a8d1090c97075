import TrackCore

/// The parts of a summary that have no column of their own, as JSON in `session.summary`.
struct StoredSummary: Codable {
    var rejected: [String: Int]
    var autoPauses: Int
    var gpsLosses: Int
    var bridgedGaps: Int
    var maxSpeed: Double
    var trackPoints: Int

    init(_ summary: SessionSummary) {
        rejected = Dictionary(uniqueKeysWithValues: summary.rejected.map { ($0.key.rawValue, $0.value) })
        autoPauses = summary.autoPauses
        gpsLosses = summary.gpsLosses
        bridgedGaps = summary.bridgedGaps
        maxSpeed = summary.maxSpeed
        trackPoints = summary.trackPoints
    }

    enum CodingKeys: String, CodingKey {
        case rejected
        case autoPauses = "auto_pauses"
        case gpsLosses = "gps_losses"
        case bridgedGaps = "gaps_bridged"
        case maxSpeed = "max_speed_mps"
        case trackPoints = "track_points"
    }
}
