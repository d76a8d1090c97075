import PhoneServer
import TrackCore

/// One session the phone holds (`Session`); the figures are there once it ended.
struct SessionItem: DocumentedBody {
    static let schema = "#/components/schemas/Session"

    /// The session's figures at its end.
    struct Figures: Sendable, Equatable {
        var distanceM: Double
        var elapsedS: Double
        var movingS: Double
        var avgHeartRate: Int?
        var maxHeartRate: Int?
        var splits: Int
        /// Energy spent (kcal) and climbed and descended (m); nil where not measured.
        var energyKcal: Double? = nil
        var elevationGainM: Double? = nil
        var elevationLossM: Double? = nil
        /// Steps the wearable's IMU counted; nil where none did.
        var steps: Int? = nil

        /// Seconds per kilometre over the moving time, when there was distance and motion.
        var avgPaceSPerKm: Double? {
            distanceM > 0 && movingS > 0 ? (movingS / (distanceM / 1000)).rounded() : nil
        }
    }

    var wearable: String
    var session: String
    @Nullable var activity: String? = nil
    @Nullable var distanceSource: DistanceSource? = nil
    @Nullable var startedAtMs: Int64? = nil
    var ended: Bool
    @Nullable var backfill: BackfillState.Progress? = nil
    var backfillRows: Int
    var exportable: Bool
    var figures: Figures?

    private enum CodingKeys: String, CodingKey {
        case wearable, session, activity, distanceSource, startedAtMs, ended, backfill, backfillRows, exportable
        case distanceM, elapsedS, movingS, avgPaceSPerKm, avgHeartRate, maxHeartRate, splits
        case energyKcal, elevationGainM, elevationLossM, steps
    }

    /// The ended session's figures sit beside the rest; every one of them is written (null where a
    /// reading is missing), and none before the end.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(wearable, forKey: .wearable)
        try container.encode(session, forKey: .session)
        try container.encode(_activity, forKey: .activity)
        try container.encode(_distanceSource, forKey: .distanceSource)
        try container.encode(_startedAtMs, forKey: .startedAtMs)
        try container.encode(ended, forKey: .ended)
        try container.encode(_backfill, forKey: .backfill)
        try container.encode(backfillRows, forKey: .backfillRows)
        try container.encode(exportable, forKey: .exportable)
        guard let figures else { return }
        try container.encode(figures.distanceM, forKey: .distanceM)
        try container.encode(figures.elapsedS, forKey: .elapsedS)
        try container.encode(figures.movingS, forKey: .movingS)
        try container.encode(Nullable(wrappedValue: figures.avgPaceSPerKm), forKey: .avgPaceSPerKm)
        try container.encode(Nullable(wrappedValue: figures.avgHeartRate), forKey: .avgHeartRate)
        try container.encode(Nullable(wrappedValue: figures.maxHeartRate), forKey: .maxHeartRate)
        try container.encode(figures.splits, forKey: .splits)
        try container.encode(Nullable(wrappedValue: figures.energyKcal), forKey: .energyKcal)
        try container.encode(Nullable(wrappedValue: figures.elevationGainM), forKey: .elevationGainM)
        try container.encode(Nullable(wrappedValue: figures.elevationLossM), forKey: .elevationLossM)
        try container.encode(Nullable(wrappedValue: figures.steps), forKey: .steps)
    }

}

/// `GET /api/sessions`.
struct SessionList: DocumentedBody {
    static let schema = response("/api/sessions", "get", 200)

    var sessions: [SessionItem]
}
