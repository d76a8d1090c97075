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

    /// The course followed, as the live figures carry it (its name and shape come in the track).
    struct Course: Encodable, Sendable, Equatable {
        enum State: String, Encodable, Sendable, CaseIterable {
            case notStarted = "not_started"
            case onCourse = "on_course"
            case leaving
            case offCourse = "off_course"
            case rejoining
            case finished
            case unknown
        }

        var toGoM: Double
        /// Metres from the course; null before any position.
        @Nullable var awayM: Int? = nil
        var state: State
        /// Time to the finish at the session's average speed; null while unknown.
        @Nullable var toGoS: Int? = nil
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
    /// The course the session follows; null when none.
    @Nullable var course: Course? = nil
}
