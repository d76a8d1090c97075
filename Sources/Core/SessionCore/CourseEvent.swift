import Course

/// The wearer on a course, as the session's listeners hear it.
public enum CourseEvent: Sendable, Equatable {
    /// The session follows this course (`length` m).
    case following(name: String, length: Double)
    /// Off the course, this far from it (m).
    case offCourse(away: Double)
    /// Back on it, at this distance along it (m).
    case backOnCourse(at: Double)
    /// The next turn, `metres` ahead.
    case turnAhead(TurnDirection, metres: Double)
    /// Its end reached.
    case finished(name: String)
}
