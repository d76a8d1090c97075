/// Which way a turn goes, as a cue says it.
public enum TurnDirection: String, Sendable, CaseIterable {
    case left
    case right
    case sharpLeft = "sharp_left"
    case sharpRight = "sharp_right"
    case uTurn = "u_turn"

    /// From the change of heading (degrees, positive clockwise: to the right).
    public init(degrees: Double) {
        switch degrees {
        case ...(-170), 170...: self = .uTurn
        case ..<(-135): self = .sharpLeft
        case ..<0: self = .left
        case ...135: self = .right
        default: self = .sharpRight
        }
    }
}

/// A turn on a course: where along it (m) and which way, declared by the course's file or found in
/// its shape.
public struct CourseTurn: Sendable, Equatable {
    public var distance: Double
    public var direction: TurnDirection

    public init(distance: Double, direction: TurnDirection) {
        self.distance = distance
        self.direction = direction
    }
}
