import PhoneServer

/// `GET /api/courses`: the courses the phone keeps, by name, as the wearable gets them.
struct CourseList: DocumentedBody {
    static let schema = response("/api/courses", "get", 200)

    /// One course (`CourseKept`): its name, length, points kept and in its file, turns, its size
    /// for the wearable, and the file it came from.
    struct Course: DocumentedBody {
        static let schema = "#/components/schemas/CourseKept"

        var name: String
        var lengthM: Double
        var points: Int
        var filePoints: Int
        var turns: Int
        var bytes: Int
        var source: String

        init(_ kept: PhoneCourse) {
            name = kept.course.name
            lengthM = (kept.course.length * 10).rounded() / 10
            points = kept.course.points.count
            filePoints = kept.filePoints
            turns = kept.course.turns.count
            bytes = kept.bytes.count
            source = kept.source
        }
    }

    var courses: [Course]
}

/// `POST /api/wearables/{name}/courses/{course}`: the commands that carry the course's parts.
struct CourseSent: DocumentedBody {
    static let schema = response("/api/wearables/{name}/courses/{course}", "post", 202)

    var course: String
    /// One command a part; each one's standing is `GET /api/commands/{id}`.
    var commands: [String]
}

/// `DELETE /api/wearables/{name}/courses/{course}`: forgotten on the phone, and the command that
/// makes the wearable forget it.
struct CourseRemoved: DocumentedBody {
    static let schema = response("/api/wearables/{name}/courses/{course}", "delete", 202)

    var course: String
    var removedFromPhone: Bool
    var command: String
}
