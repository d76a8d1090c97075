/// The newest snapshot as the API sends it (`Snapshot`): numbers in metres, seconds and bpm;
/// absent readings are null, never zero.
public struct SnapshotBody: StampedBody {
    public static let schema = "#/components/schemas/Snapshot"
    public static let eventSchema = "#/components/schemas/SnapshotEvent"

    /// The session's state as the wearable reported it.
    public enum State: String, Encodable, Sendable, CaseIterable {
        case idle, starting, active, paused, ending, unknown
        case autoPaused = "auto_paused"
    }

    /// The GPS as the wearable judged it.
    public enum GPS: String, Encodable, Sendable, CaseIterable {
        case none, lost, poor, good, unknown
    }

    public var seq: Int
    public var ageS: Double
    public var receivedAtMs: Int64
    @Nullable public var session: String?
    public var state: State
    public var distanceM: Double
    public var elapsedS: Int
    public var movingS: Int
    @Nullable public var paceSPerKm: Int?
    @Nullable public var avgPaceSPerKm: Int?
    @Nullable public var heartRate: Int?
    @Nullable public var zone: Int?
    public var zoneFloorsBpm: [Int]
    public var gps: GPS
    public var strapLost: Bool

    public init(
        seq: Int,
        ageS: Double,
        receivedAtMs: Int64,
        session: String?,
        state: State,
        distanceM: Double,
        elapsedS: Int,
        movingS: Int,
        paceSPerKm: Int?,
        avgPaceSPerKm: Int?,
        heartRate: Int?,
        zone: Int?,
        zoneFloorsBpm: [Int],
        gps: GPS,
        strapLost: Bool
    ) {
        self.seq = seq
        self.ageS = ageS
        self.receivedAtMs = receivedAtMs
        self.session = session
        self.state = state
        self.distanceM = distanceM
        self.elapsedS = elapsedS
        self.movingS = movingS
        self.paceSPerKm = paceSPerKm
        self.avgPaceSPerKm = avgPaceSPerKm
        self.heartRate = heartRate
        self.zone = zone
        self.zoneFloorsBpm = zoneFloorsBpm
        self.gps = gps
        self.strapLost = strapLost
    }
}
