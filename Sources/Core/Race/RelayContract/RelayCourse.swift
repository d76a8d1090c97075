import Course
import TrackCore

/// A race's course as the relay keeps it (`relay.courses`): its name, each point's position in 1e-7
/// degree and its distance along the course in centimetres, and its turns. The inviter's phone
/// makes it from a kept course; the other phone reads a stranger's: `course()` checks it as the
/// wearable checks a course from the link, so a course the relay took but no wearable could follow
/// is refused with its reason.
public struct RelayCourse: Sendable, Equatable {
    public var name: String
    public var latitudeE7: [Int32]
    public var longitudeE7: [Int32]
    public var distanceCentimetres: [Int32]
    public var turnCentimetres: [Int32]
    /// `left`, `right`, `sharp_left`, `sharp_right`, `u_turn` (`TurnDirection`'s names).
    public var turnDirections: [String]

    public init(
        name: String,
        latitudeE7: [Int32],
        longitudeE7: [Int32],
        distanceCentimetres: [Int32],
        turnCentimetres: [Int32],
        turnDirections: [String]
    ) {
        self.name = name
        self.latitudeE7 = latitudeE7
        self.longitudeE7 = longitudeE7
        self.distanceCentimetres = distanceCentimetres
        self.turnCentimetres = turnCentimetres
        self.turnDirections = turnDirections
    }

    /// A kept course in the relay's units, rounded as the link's serialization rounds it: the
    /// course read back is the one the wearable keeps.
    public init(_ course: Course) {
        self.init(
            name: course.name,
            latitudeE7: course.points.map { RelayRoute.units($0.position.latitude) },
            longitudeE7: course.points.map { RelayRoute.units($0.position.longitude) },
            distanceCentimetres: course.points.map { Self.centimetres($0.distance) },
            turnCentimetres: course.turns.map { Self.centimetres($0.distance) },
            turnDirections: course.turns.map(\.direction.rawValue)
        )
    }

    /// The course, checked: a name of one clean line, arrays of one length, a course's points
    /// (`Course(name:points:turns:)`: plausible, distances from 0 that grow by no less than the
    /// straight line, at most 1000 km, turns on it).
    public func course() throws(RelayCourseProblem) -> Course {
        guard !name.isEmpty, CourseName.clean(name) == name else {
            throw RelayCourseProblem("its name is not one line of at most \(CourseName.maximumLength) characters")
        }
        let count = latitudeE7.count
        guard count >= 2, longitudeE7.count == count, distanceCentimetres.count == count else {
            throw RelayCourseProblem("its points' latitudes, longitudes and distances differ in number")
        }
        guard turnCentimetres.count == turnDirections.count else {
            throw RelayCourseProblem("its turns' distances and directions differ in number")
        }
        var turns: [CourseTurn] = []
        for (centimetres, name) in zip(turnCentimetres, turnDirections) {
            guard let direction = TurnDirection(rawValue: name) else {
                throw RelayCourseProblem("a turn goes \(name.prefix(20)), not a way a course turns")
            }
            turns.append(CourseTurn(distance: Double(centimetres) / 100, direction: direction))
        }
        let points = (0..<count).map { index in
            CoursePoint(
                position: GeoPoint(
                    latitude: Double(latitudeE7[index]) / 1e7,
                    longitude: Double(longitudeE7[index]) / 1e7
                ),
                distance: Double(distanceCentimetres[index]) / 100
            )
        }
        guard let course = Course(name: name, points: points, turns: turns) else {
            throw RelayCourseProblem(
                "its points are not a course (on the globe, distances from 0 no shorter than the line, at most 1000 km)"
            )
        }
        return course
    }

    static func centimetres(_ metres: Double) -> Int32 { RelayRoute.scaled(metres, by: 100, notFinite: -1) }
}

/// Why a race's course from the relay cannot be followed.
public struct RelayCourseProblem: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}
