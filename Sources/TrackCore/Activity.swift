/// What the wearer is doing; it picks the `ActivityProfile`.
public enum Activity: String, CaseIterable, Sendable, Codable {
    case running
    case walking
    case cycling

    public var profile: ActivityProfile {
        switch self {
        case .running: .running
        case .walking: .walking
        case .cycling: .cycling
        }
    }
}
