import Course
import Energy
import RaceCore
import SessionCore
import TrackCore

/// A command as an edge (control socket, phone link) hands it to the engine, already checked:
/// it has an id, and a known activity if any.
public struct CommandRequest: Sendable, Equatable {
    /// Who asked: the phone's answers also travel back through the outbox.
    public enum Origin: Sendable, Equatable {
        case local
        /// `expiresAt`: the monotonic instant after which it must not be applied (nil: never).
        case phone(expiresAt: Double?)
    }

    public var command: SessionCommand
    public var id: String
    public var activity: Activity?
    /// For `start`: indoors or not; the configured default when nil.
    public var indoor: Bool?
    /// For `calibrate`: the distance run since the mark (m); nil marks.
    public var metres: Double?
    /// For `start`: the body mass and load that override the configured ones.
    public var carriage: CarriageOverride
    public var token: ReplyToken
    public var origin: Origin
    /// A race's command: the race it arms or cancels, or the partner's event.
    public var race: RaceInstruction?
    /// For `course`: the part to keep.
    public var coursePart: CoursePart?
    /// For `start`: the kept course to follow (by name).
    public var course: String?

    public init(
        _ command: SessionCommand,
        id: String,
        activity: Activity? = nil,
        indoor: Bool? = nil,
        metres: Double? = nil,
        carriage: CarriageOverride = .none,
        token: ReplyToken,
        origin: Origin = .local,
        race: RaceInstruction? = nil,
        coursePart: CoursePart? = nil,
        course: String? = nil
    ) {
        self.race = race
        self.coursePart = coursePart
        self.course = course
        self.command = command
        self.id = id
        self.activity = activity
        self.indoor = indoor
        self.metres = metres
        self.carriage = carriage
        self.token = token
        self.origin = origin
    }

    var isFromPhone: Bool { if case .phone = origin { true } else { false } }
}
