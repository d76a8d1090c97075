import Course
import RelayContract
import Testing
import TrackCore

/// A race's course in the relay's units: made from a kept course and read back the same (so both
/// runners follow one course, to the centimetre), and a stranger's checked as the wearable checks a
/// course from the link, each refusal with its reason.
@Suite struct RelayCourseTests {
    static func course() throws -> Course {
        let frame = LocalFrame(origin: GeoPoint(latitude: -33.9, longitude: 151.2))
        let positions = [(0.0, 0.0), (300, 0), (300, 250), (600, 250), (600, -50)].map {
            frame.unproject(LocalPoint(east: $0.0, north: $0.1))
        }
        return try #require(Course(name: "Bondi to Bronte", positions: positions))
    }

    @Test func aKeptCourseReadsBackAsItselfInTheRelaysUnits() throws {
        let course = try Self.course()
        let relay = RelayCourse(course)
        #expect(relay.latitudeE7.count == 5 && relay.distanceCentimetres.first == 0)
        #expect(relay.turnDirections == ["left", "right", "right"], "\(relay.turnDirections)")
        let back = try relay.course()
        #expect(back.name == course.name && back.points.count == course.points.count)
        #expect(abs(back.length - course.length) < 0.01 && back.turns.map(\.direction) == course.turns.map(\.direction))
        #expect(RelayCourse(back) == relay, "read back and made again: the same arrays")
    }

    @Test func aStrangersCourseThatIsNoCourseIsRefusedWithItsReason() throws {
        let good = RelayCourse(try Self.course())
        var cases: [(RelayCourse, String)] = []
        var named = good
        named.name = "two\nlines"
        cases.append((named, "name"))
        var short = good
        short.longitudeE7.removeLast()
        cases.append((short, "differ in number"))
        var turns = good
        turns.turnDirections.removeLast()
        cases.append((turns, "turns' distances and directions"))
        var way = good
        way.turnDirections[0] = "upwards"
        cases.append((way, "not a way a course turns"))
        var shrunk = good
        shrunk.distanceCentimetres = shrunk.distanceCentimetres.map { $0 / 2 }
        cases.append((shrunk, "not a course"))
        var offGlobe = good
        offGlobe.latitudeE7[2] = 950_000_000
        cases.append((offGlobe, "not a course"))
        var beyond = good
        beyond.turnCentimetres[0] = 99_000_000
        cases.append((beyond, "not a course"))
        for (course, words) in cases {
            #expect {
                try course.course()
            } throws: { error in
                (error as? RelayCourseProblem)?.description.contains(words) == true
            }
        }
    }
}
