import Course
import SessionCore
import TrackCore

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

extension SessionEngine {
    /// Forgets the kept course a command names: not while a session under way or a race armed
    /// follows it; a course not kept is nothing to forget (accepted, so a retry of a removal the
    /// phone did not hear answered is not a failure).
    mutating func courseRemoval(_ request: CommandRequest) -> (RefusalCode?, String) {
        guard let name = request.course else { return (.invalid, "a course's removal without its name") }
        if controller.session != nil, let follower, follower.course.name == name {
            return (.alreadyActive, "the session under way follows \"\(name)\": end it first")
        }
        if let race, race.session == nil, race.order.course == name {
            return (.alreadyActive, "the race with \(race.order.partner) is to follow \"\(name)\"")
        }
        guard courses.remove(named: name) != nil else {
            return (nil, "no course named \"\(name)\" is kept here: nothing to remove")
        }
        output.rows.append(.courseRemoved(name: name))
        return (nil, "course \"\(name)\" removed")
    }
}

extension SessionEngine {
    /// The session just started follows the kept course `name` (simplified as it came).
    mutating func follow(course name: String, _ now: Instant) {
        guard let course = courses.course(named: name), controller.session != nil else { return }
        follower = CourseFollower(course: course)
        controller.event(
            .course(.following(name: name, length: course.length)),
            receivedAt: now.monotonic,
            into: &output
        )
    }

    /// A restarted daemon's session followed the kept course `name`: the follower again, brought to
    /// where the wearer was by the session's accepted positions (`track`: smoothed, with their
    /// receive instants), its news then not said again. False when the course is not kept.
    @discardableResult
    public mutating func follow(recovered name: String, track: [(position: GeoPoint, at: Double)]) -> Bool {
        guard let course = courses.course(named: name), controller.session != nil else { return false }
        var follower = CourseFollower(course: course)
        for point in track { _ = follower.fix(point.position, at: point.at) }
        follower.restarted()
        self.follower = follower
        return true
    }

    /// A fix the session took in: its smoothed position moves the wearer along the course.
    mutating func followCourse(receivedAt: Double?) {
        guard var follower, let receivedAt else { return }
        let smoothed = output.rows.last { if case .fix = $0 { true } else { false } }
        guard case .fix(_, _, _, .accepted(let position))? = smoothed else { return }
        let events = follower.fix(position, at: receivedAt)
        self.follower = follower
        for event in events {
            let said: CourseEvent =
                switch event {
                case .offCourse(let away): .offCourse(away: away)
                case .backOnCourse(let along): .backOnCourse(at: along)
                case .turnAhead(let turn, let metres): .turnAhead(turn.direction, metres: metres)
                case .finished: .finished(name: follower.course.name)
                }
            controller.event(.course(said), receivedAt: receivedAt, into: &output)
        }
    }
}
