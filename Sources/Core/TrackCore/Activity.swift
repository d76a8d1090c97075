import Energy

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

extension Activity {
    /// How the energy models see it.
    public var energyActivity: EnergyActivity {
        switch self {
        case .running: .running
        case .walking: .walking
        case .cycling: .cycling
        }
    }

    /// Why a command's activity was refused, in the words every edge (control socket, phone) uses.
    public static func refusal(forUnknown name: String) -> String {
        "unknown activity \"\(name)\"; one of \(allCases.map(\.rawValue).joined(separator: ", "))"
    }
}
