/// Body Sensor Location (0x2A38): where the strap says it is worn.
public enum BodySensorLocation: UInt8, Sendable, Equatable, CaseIterable {
    case other = 0
    case chest, wrist, finger, hand, earLobe, foot

    public var name: String {
        switch self {
        case .other: "other"
        case .chest: "chest"
        case .wrist: "wrist"
        case .finger: "finger"
        case .hand: "hand"
        case .earLobe: "ear_lobe"
        case .foot: "foot"
        }
    }
}
