import Course
import SessionCore

extension SessionEngine {
    /// A course's part, once the log said its id is new: kept (its row in the batch of the
    /// command's own), and on the last part the whole course kept under its name; the refusal, if
    /// any, and what to say.
    mutating func courseAnswer(_ request: CommandRequest) -> (RefusalCode?, String) {
        guard let part = request.coursePart else { return (.invalid, "a course command without its part") }
        switch courses.take(part) {
        case .refused(let reason):
            return (.invalid, reason)
        case .unreadable(let reason):
            return (.invalid, "the course's \(part.count) parts are not a course: \(reason)")
        case .part(let have):
            output.rows.append(.coursePart(part))
            return (nil, "part \(part.index + 1) of \(part.count) of a course kept (\(have) here)")
        case .kept(let kept):
            output.rows.append(.courseKept(id: kept.id, name: kept.course.name, bytes: kept.bytes))
            let course = kept.course
            let kilometres = (course.length / 100).rounded() / 10
            return (
                nil,
                "course \"\(course.name)\" kept: \(kilometres) km, \(course.points.count) points, "
                    + "\(course.turns.count) turns"
            )
        }
    }
}
