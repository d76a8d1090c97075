import Foundation

/// One runner's part in an accepted run: their start offset, the newest figures the relay saw and how
/// they ended, with the final figures the result was decided from.
public struct RelayEntry: Sendable, Equatable, Codable {
    public enum Outcome: String, Sendable, Codable {
        case finished, abandoned
    }

    public var runner: String
    /// The wearable's actual start against the agreed instant (late is positive).
    public var startOffsetMilliseconds: Int?
    public var lastSeenAt: Date?
    public var lastDistanceMetres: Double?
    public var outcome: Outcome?
    public var endedAt: Date?
    public var finalDistanceMetres: Double?
    public var finalElapsedSeconds: Double?
    public var finalMovingSeconds: Double?

    public init(
        runner: String,
        startOffsetMilliseconds: Int?,
        lastSeenAt: Date?,
        lastDistanceMetres: Double?,
        outcome: Outcome?,
        endedAt: Date?,
        finalDistanceMetres: Double?,
        finalElapsedSeconds: Double?,
        finalMovingSeconds: Double?
    ) {
        self.runner = runner
        self.startOffsetMilliseconds = startOffsetMilliseconds
        self.lastSeenAt = lastSeenAt
        self.lastDistanceMetres = lastDistanceMetres
        self.outcome = outcome
        self.endedAt = endedAt
        self.finalDistanceMetres = finalDistanceMetres
        self.finalElapsedSeconds = finalElapsedSeconds
        self.finalMovingSeconds = finalMovingSeconds
    }
}
