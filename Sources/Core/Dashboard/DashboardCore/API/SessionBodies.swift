/// One session the phone holds (`Session`); the figures are there once it ended.
public struct SessionItem: DocumentedBody {
    public static let schema = "#/components/schemas/Session"

    /// Where the session's distance came from.
    public enum DistanceSource: String, Encodable, Sendable, CaseIterable {
        case gps, footpod, treadmill
    }

    /// How far the phone's copy of the session's rows is.
    public enum Backfill: String, Encodable, Sendable, CaseIterable {
        case pulling, complete, unknown
    }

    /// The session's figures at its end.
    public struct Figures: Sendable, Equatable {
        public var distanceM: Double
        public var elapsedS: Double
        public var movingS: Double
        public var avgHeartRate: Int?
        public var maxHeartRate: Int?
        public var splits: Int

        public init(
            distanceM: Double,
            elapsedS: Double,
            movingS: Double,
            avgHeartRate: Int?,
            maxHeartRate: Int?,
            splits: Int
        ) {
            self.distanceM = distanceM
            self.elapsedS = elapsedS
            self.movingS = movingS
            self.avgHeartRate = avgHeartRate
            self.maxHeartRate = maxHeartRate
            self.splits = splits
        }

        /// Seconds per kilometre over the moving time, when there was distance and motion.
        public var avgPaceSPerKm: Double? {
            distanceM > 0 && movingS > 0 ? (movingS / (distanceM / 1000)).rounded() : nil
        }
    }

    public var wearable: String
    public var session: String
    @Nullable public var activity: String?
    @Nullable public var distanceSource: DistanceSource?
    @Nullable public var startedAtMs: Int64?
    public var ended: Bool
    @Nullable public var backfill: Backfill?
    public var backfillRows: Int
    public var exportable: Bool
    public var figures: Figures?

    public init(
        wearable: String,
        session: String,
        activity: String?,
        distanceSource: DistanceSource?,
        startedAtMs: Int64?,
        ended: Bool,
        backfill: Backfill?,
        backfillRows: Int,
        exportable: Bool,
        figures: Figures?
    ) {
        self.wearable = wearable
        self.session = session
        self.activity = activity
        self.distanceSource = distanceSource
        self.startedAtMs = startedAtMs
        self.ended = ended
        self.backfill = backfill
        self.backfillRows = backfillRows
        self.exportable = exportable
        self.figures = figures
    }

    private enum CodingKeys: String, CodingKey {
        case wearable, session, activity, distanceSource, startedAtMs, ended, backfill, backfillRows, exportable
        case distanceM, elapsedS, movingS, avgPaceSPerKm, avgHeartRate, maxHeartRate, splits
    }

    /// The ended session's figures sit beside the rest; every one of them is written (null where a
    /// reading is missing), and none before the end.
    public func encode(to encoder: any Encoder) throws {
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
    }

}

/// `GET /api/sessions`.
public struct SessionList: DocumentedBody {
    public static let schema = response("/api/sessions", "get", 200)

    public var sessions: [SessionItem]

    public init(sessions: [SessionItem]) {
        self.sessions = sessions
    }
}
