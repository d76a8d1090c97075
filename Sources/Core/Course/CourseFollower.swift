import TrackCore

/// Follows the wearer along a course, fix by fix: each position matched to the course near where
/// the progress so far and its pace put the wearer now (within a window ahead that grows with the
/// time since the last fix; on an out-and-back's shared road, the pass the wearer is running), off course after
/// `offDistance` for `offAfter` seconds, back on course after `backDistance` for `backAfter`, each
/// turn cued once `turnCueAhead` before it, the finish once. Pure: positions and times in, events
/// out.
public struct CourseFollower: Sendable {
    public struct Settings: Sendable, Equatable {
        /// Farther than this from the course (m) for `offAfter` (s): off course.
        public var offDistance = 40.0
        public var offAfter = 15.0
        /// Within this (m) for `backAfter` (s): back on course.
        public var backDistance = 25.0
        public var backAfter = 5.0
        /// A turn is cued this far before it (m).
        public var turnCueAhead = 100.0
        /// The finish: on course within this of its end (m).
        public var finishWithin = 20.0

        public init() {}
    }

    public enum State: Sendable, Equatable {
        /// No position has been near the course yet.
        case notStarted
        case onCourse
        /// Farther than `offDistance` since then, not yet for long enough.
        case leaving(since: Double)
        case offCourse(since: Double)
        /// Off course, within `backDistance` again since then.
        case rejoining(since: Double)
        case finished
    }

    public enum Event: Sendable, Equatable {
        case offCourse(away: Double)
        /// Back on course at this distance along it.
        case backOnCourse(at: Double)
        /// The next turn, `metres` ahead.
        case turnAhead(CourseTurn, metres: Double)
        case finished
    }

    public let course: Course
    public let settings: Settings
    public private(set) var state = State.notStarted
    /// The distance along the course the wearer has reached (m): held while off course.
    public private(set) var along: Double?
    /// How far the last position was from the course (m).
    public private(set) var away: Double?
    private var lastTime: Double?
    /// The last few fixes' positions and times: the heading over the last 5 s or more (one
    /// second's is mostly the receiver's noise) tells an out-and-back's two passes apart.
    private var recent: [(position: GeoPoint, time: Double)] = []
    /// Metres along a second, smoothed: where the next fix is expected.
    private var rate = 0.0
    private var nextTurn = 0

    public init(course: Course, settings: Settings = Settings()) {
        self.course = course
        self.settings = settings
    }

    /// A fix's position at `time` (s, any monotonic or GPS clock); what it changed.
    public mutating func fix(_ position: GeoPoint, at time: Double) -> [Event] {
        guard state != .finished, position.isPlausible else { return [] }
        let gap = lastTime.map { max(0, min(600, time - $0)) } ?? 1
        lastTime = time
        let heading = recent.last { time - $0.time >= 5 }.flatMap { earlier in
            let moved = LocalFrame(origin: earlier.position).project(position)
            return moved.length >= 5 ? moved : nil
        }
        recent.append((position, time))
        recent.removeAll { time - $0.time > 10 }
        var events: [Event] = []
        switch state {
        case .notStarted:
            // The first pass near the position: a loop's start, not its end.
            guard let first = course.earliestMatch(position, within: settings.backDistance) else {
                away = course.match(position)?.away
                return []
            }
            away = first.away
            along = first.along
            state = .onCourse
            skipPassedTurns()
        case .onCourse, .leaving:
            guard let previous = along, let found = window(position, after: previous, gap: gap, heading: heading) else {
                return []
            }
            away = found.away
            if gap > 0 { rate = 0.7 * rate + 0.3 * min(10, max(-2, (found.along - previous) / gap)) }
            if found.away > settings.offDistance {
                if case .leaving(let since) = state {
                    if time - since >= settings.offAfter {
                        state = .offCourse(since: since)
                        events.append(.offCourse(away: found.away))
                        return events
                    }
                } else {
                    state = .leaving(since: time)
                }
            } else {
                state = .onCourse
            }
            along = found.along
        case .offCourse, .rejoining:
            // Anywhere ahead, or a little behind where the course was left.
            let previous = along ?? 0
            guard let found = course.match(position, from: max(0, previous - 200), near: previous) else { return [] }
            away = found.away
            guard found.away <= settings.backDistance else {
                if case .rejoining = state { state = .offCourse(since: time) }
                return []
            }
            if case .rejoining(let since) = state {
                guard time - since >= settings.backAfter else { return [] }
                state = .onCourse
                along = found.along
                rate = 0
                skipPassedTurns()
                events.append(.backOnCourse(at: found.along))
            } else {
                state = .rejoining(since: time)
                return []
            }
        case .finished:
            return []
        }
        guard let along else { return events }
        while nextTurn < course.turns.count, course.turns[nextTurn].distance - along <= settings.turnCueAhead {
            let turn = course.turns[nextTurn]
            nextTurn += 1
            if turn.distance > along { events.append(.turnAhead(turn, metres: turn.distance - along)) }
        }
        if state == .onCourse, course.length - along <= settings.finishWithin {
            state = .finished
            events.append(.finished)
        }
        return events
    }

    /// The daemon restarted: the positions before it were replayed, the clock may be another boot's.
    /// The heading and the pace are learnt again from the next fixes; where the wearer is stays.
    public mutating func restarted() {
        lastTime = nil
        recent.removeAll()
        rate = 0
    }

    /// Where the wearer is on the course now, and, at `averageSpeed` (m/s), when they will finish.
    public func progress(averageSpeed: Double? = nil) -> CourseProgress {
        let done = state == .finished ? course.length : (along ?? 0)
        let toGo = max(0, course.length - done)
        let eta = averageSpeed.flatMap { $0 > 0.3 ? toGo / $0 : nil }
        return CourseProgress(
            name: course.name,
            length: course.length,
            done: done,
            toGo: toGo,
            away: away,
            state: state,
            secondsToGo: eta
        )
    }

    /// The match within the window ahead of `previous` (up to 10 m a second of `gap` more), each
    /// metre from where the pace puts the wearer costing a tenth of a metre.
    /// A pass run against the wearer's heading costs up to 10 m more.
    private func window(_ position: GeoPoint, after previous: Double, gap: Double, heading: LocalPoint?) -> CourseMatch?
    {
        course.match(
            position,
            from: max(0, previous - 30),
            to: previous + 100 + 10 * gap,
            near: previous + rate * gap,
            pull: 0.1,
            heading: heading
        )
    }

    /// Turns behind the wearer are not cued (a start partway along, a rejoin past them).
    private mutating func skipPassedTurns() {
        guard let along else { return }
        while nextTurn < course.turns.count, course.turns[nextTurn].distance < along { nextTurn += 1 }
    }
}
