/// The newest snapshot as the API sends it (`Snapshot`): numbers in metres, seconds and bpm;
/// absent readings are null, never zero.
struct SnapshotBody: StampedBody {
    static let schema = "#/components/schemas/Snapshot"
    static let eventSchema = "#/components/schemas/SnapshotEvent"

    /// The session's state as the wearable reported it.
    enum State: String, Encodable, Sendable, CaseIterable {
        case idle, starting, active, paused, ending, unknown
        case autoPaused = "auto_paused"
    }

    /// The GPS as the wearable judged it.
    enum GPS: String, Encodable, Sendable, CaseIterable {
        case none, lost, poor, good, unknown
    }

    var seq: Int
    var ageS: Double
    var receivedAtMs: Int64
    @Nullable var session: String? = nil
    var state: State
    var distanceM: Double
    var elapsedS: Int
    var movingS: Int
    @Nullable var paceSPerKm: Int? = nil
    @Nullable var avgPaceSPerKm: Int? = nil
    @Nullable var heartRate: Int? = nil
    @Nullable var zone: Int? = nil
    var zoneFloorsBpm: [Int]
    var gps: GPS
    var strapLost: Bool
    /// Energy spent so far (kcal); null while the wearable does not estimate it.
    @Nullable var energyKcal: Int? = nil
    /// Elevation gain so far (m); null before any.
    @Nullable var climbedM: Int? = nil
    /// Steps the wearable's IMU counted so far; null without one.
    @Nullable var steps: Int? = nil
}
