/// What the wearer is doing, as the energy models see it: the session's activity names it, the
/// speed decides the gait within it.
public enum EnergyActivity: Sendable, Equatable {
    case walking
    case running
    /// No model: a rider's energy depends on the bike, the wind and the road, which no fix shows.
    case cycling
}

/// Which model a moment of a session is costed by.
public struct ModelChoice: Sendable, Equatable {
    /// Faster than this a walker is running: the ACSM running equation's lower bound for certain
    /// running (134 m/min).
    public static let runningAbove = 2.24
    /// Slower than this a runner is walking: the ACSM running equation's lowest speed, and only
    /// "if the person is truly running" (80 m/min).
    public static let walkingBelow = 1.34

    /// Walking, rucking, standing.
    public var walking: WalkingModel

    public init(walking: WalkingModel = .lcda) {
        self.walking = walking
    }

    /// The model for `speed` (m/s) in `activity`; nil when none applies.
    public func model(for activity: EnergyActivity, speed: Double) -> EnergyModel? {
        switch activity {
        case .cycling: nil
        case .walking: speed > Self.runningAbove ? .acsmRunning : walking.model
        case .running: speed < Self.walkingBelow ? walking.model : .acsmRunning
        }
    }
}

/// The load-carriage equations a walk can be costed by (the config's `energy.walking_model`).
public enum WalkingModel: String, Sendable, CaseIterable, Codable {
    case lcda
    case pandolf

    public var model: EnergyModel {
        switch self {
        case .lcda: .lcda
        case .pandolf: .pandolf
        }
    }
}
