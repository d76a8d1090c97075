/// One request on the control socket: a JSON object on one line.
public struct ControlRequest: Sendable, Codable, Equatable {
    public enum Command: String, Sendable, Codable, CaseIterable {
        case start, pause, resume, end, status
        /// The footpod's fixed-distance calibration: mark now, or with `metres` learn from it.
        case calibrate
        /// Forget the kept course named `course`.
        case remove
    }

    public var command: Command
    /// Commands that change the session need an id: a retry with the same id is not applied twice.
    public var id: String?
    /// For `start`: running, walking or cycling; the configured activity when absent.
    public var activity: String?
    /// For `start`: true begins an indoor session (distance from the footpod or treadmill), false
    /// an outdoor one; the configured `session.indoor` when absent.
    public var indoor: Bool?
    /// For `calibrate`: the distance run since the mark (m).
    public var metres: Double?
    /// For `start`: the wearer's body mass and load (kg), over the configured ones.
    public var bodyMass: Double?
    public var load: Double?
    /// For `start`: the name of a course the wearable keeps, to follow; for `remove`: the course to
    /// forget.
    public var course: String?

    public init(
        command: Command,
        id: String? = nil,
        activity: String? = nil,
        indoor: Bool? = nil,
        metres: Double? = nil,
        bodyMass: Double? = nil,
        load: Double? = nil,
        course: String? = nil
    ) {
        self.course = course
        self.command = command
        self.id = id
        self.activity = activity
        self.indoor = indoor
        self.metres = metres
        self.bodyMass = bodyMass
        self.load = load
    }

    enum CodingKeys: String, CodingKey {
        case command, id, activity, indoor, metres, course
        case bodyMass = "body_mass_kg"
        case load = "load_kg"
    }
}
