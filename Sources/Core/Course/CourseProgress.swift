/// The wearer on a course, as status and the dashboard show it.
public struct CourseProgress: Sendable, Equatable {
    public var name: String
    public var length: Double
    /// Distance along the course reached, and left to its end (m).
    public var done: Double
    public var toGo: Double
    /// How far the last position was from the course (m); nil before any.
    public var away: Double?
    public var state: CourseFollower.State
    /// At the session's average speed, the time to the finish (s); nil without one.
    public var secondsToGo: Double?
}

extension CourseFollower.State {
    /// The state's name in status: not_started, on_course, leaving, off_course, rejoining, finished.
    public var name: String {
        switch self {
        case .notStarted: "not_started"
        case .onCourse: "on_course"
        case .leaving: "leaving"
        case .offCourse: "off_course"
        case .rejoining: "rejoining"
        case .finished: "finished"
        }
    }
}
