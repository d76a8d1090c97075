import Course
import TrackCore

extension CourseFile {
    /// A declared turn is placed on the course where it passes within this of the turn's point (m).
    static let turnWithin = 50.0

    /// The course this file describes, named `name` (else the file's own name, else `fallback`):
    /// its points as given, and its declared turns placed along it (each at the course's nearest
    /// pass after the turn before it), or, where it declares none, the turns its shape shows.
    public func course(named name: String?, fallback: String) throws(CourseFileError) -> Course {
        let chosen = CourseName.clean(name ?? self.name ?? fallback) ?? CourseName.clean(fallback) ?? "course"
        guard let shaped = Course(name: chosen, positions: positions) else { throw .tooShort }
        guard !turns.isEmpty else { return shaped }
        var placed: [CourseTurn] = []
        var from = 0.0
        for turn in turns {
            guard let match = shaped.match(turn.position, from: from, near: from, pull: 0.001),
                match.away <= Self.turnWithin
            else { continue }
            placed.append(CourseTurn(distance: match.along, direction: turn.direction))
            from = match.along
        }
        guard !placed.isEmpty, let declared = Course(name: chosen, positions: positions, turns: placed) else {
            return shaped
        }
        return declared
    }
}
