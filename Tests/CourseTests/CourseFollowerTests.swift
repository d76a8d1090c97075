import Course
import SyntheticReceivers
import Testing
import TrackCore

/// The course follower on runs of known truth: a loop, an out-and-back, a figure eight that
/// crosses itself, ten laps of a track, streets with corners; GPS noise of 3 m an axis.
@Suite("Courses: following one")
struct CourseFollowerTests {
    static let shapes = [
        SyntheticCourse.loop(), SyntheticCourse.outAndBack(), SyntheticCourse.figureEight(),
        SyntheticCourse.track(), SyntheticCourse.streets(),
    ]

    func course(_ shape: SyntheticCourse.Shape) throws -> Course {
        try #require(Course(name: shape.name, positions: shape.positions))
    }

    /// Followed all the way, on ten draws of the receiver's noise: the distance along within 4 m
    /// rms of the truth (the receiver's 3 m an axis along the course) and 25 m at worst (at an
    /// out-and-back's turn, where both passes are one line), never off course, finished once.
    @Test(arguments: shapes.map(\.name))
    func aRunAlongTheCourseIsFollowedToItsFinish(name: String) throws {
        let shape = try #require(Self.shapes.first { $0.name == name })
        let course = try course(shape)
        #expect(abs(course.length - shape.length) < 0.001 * shape.length, "\(course.length) vs \(shape.length)")
        for seed in UInt64(1)...10 {
            var follower = CourseFollower(course: course)
            var events: [CourseFollower.Event] = []
            var worst = 0.0
            var squares: [Double] = []
            for fix in SyntheticCourse.run(shape, seed: seed) {
                events += follower.fix(fix.position, at: fix.time)
                if follower.state != .finished, let along = follower.along {
                    worst = max(worst, abs(along - fix.along))
                    squares.append((along - fix.along) * (along - fix.along))
                }
            }
            let rms = (squares.reduce(0, +) / Double(squares.count)).squareRoot()
            #expect(rms < 4 && worst < 25, "\(name), draw \(seed): off by \(rms) m rms, \(worst) m at worst")
            #expect(!events.contains { if case .offCourse = $0 { true } else { false } }, "\(events)")
            #expect(events.filter { $0 == .finished }.count == 1 && follower.state == .finished)
            #expect(follower.progress().toGo == 0)
        }
    }

    /// A way off the course (120 m to the right, then back 150 m further on, at an angle): off
    /// course the stated time after passing the stated distance, back on course the stated time
    /// after coming within its distance again (and not before), each said once, and the distance
    /// along picked up where the wearer came back.
    @Test(arguments: shapes.map(\.name))
    func leavingTheCourseAndComingBackIsSaidOnce(name: String) throws {
        let shape = try #require(Self.shapes.first { $0.name == name })
        var follower = CourseFollower(course: try course(shape))
        let settings = follower.settings
        let detour = SyntheticCourse.Detour(at: 200, out: -120, back: 350)
        var offAt: Double?
        var backAt: Double?
        var passedOff: Double?
        var within: Double?
        var closeEnough: Double?
        var worstAfter = 0.0
        for fix in SyntheticCourse.run(shape, seed: 11, detour: detour) {
            if passedOff == nil, fix.away > settings.offDistance { passedOff = fix.time }
            if passedOff != nil, fix.away <= settings.backDistance + 10, within == nil { within = fix.time }
            if passedOff != nil, fix.away <= settings.backDistance - 6, closeEnough == nil { closeEnough = fix.time }
            for event in follower.fix(fix.position, at: fix.time) {
                switch event {
                case .offCourse:
                    #expect(offAt == nil, "off course twice")
                    offAt = fix.time
                case .backOnCourse(let along):
                    #expect(backAt == nil, "back on course twice")
                    backAt = fix.time
                    #expect(along > detour.at && along < detour.back + 15, "back at \(along)")
                default: break
                }
            }
            if fix.along > detour.back, follower.state != .finished, let along = follower.along {
                worstAfter = max(worstAfter, abs(along - fix.along))
            }
        }
        let off = try #require(offAt, "\(name): never off course")
        let passed = try #require(passedOff)
        #expect(off - passed >= settings.offAfter - 3 && off - passed <= settings.offAfter + 3, "\(off - passed) s")
        let back = try #require(backAt, "\(name): never back")
        let near = try #require(within)
        let close = try #require(closeEnough)
        #expect(back >= near + settings.backAfter - 1 && back <= close + settings.backAfter + 3, "back at \(back) s")
        #expect(worstAfter < 15, "\(name): \(worstAfter) m off after the way back")
        #expect(follower.state == .finished)
    }

    /// The streets' four corners, found in the shape alone, each cued once about 100 m before it
    /// with its direction; none on the loop, the figure eight or the track's bends, one U-turn on
    /// the out-and-back.
    @Test func turnsAreFoundInTheShapeAndCuedAhead() throws {
        let streets = SyntheticCourse.streets()
        let course = try course(streets)
        #expect(course.turns.map(\.direction) == [.left, .right, .right, .right])
        for (turn, drawn) in zip(course.turns, streets.turns) { #expect(abs(turn.distance - drawn.distance) < 5) }
        var follower = CourseFollower(course: course)
        var cued: [(CourseTurn, Double)] = []
        for fix in SyntheticCourse.run(streets, seed: 3) {
            for case .turnAhead(let turn, let metres) in follower.fix(fix.position, at: fix.time) {
                cued.append((turn, metres))
            }
        }
        #expect(cued.map(\.0) == course.turns)
        #expect(cued.allSatisfy { $0.1 > 85 && $0.1 <= 100 }, "\(cued.map(\.1))")
        for shape in [SyntheticCourse.loop(), SyntheticCourse.figureEight(), SyntheticCourse.track()] {
            let turns = try self.course(shape).turns
            #expect(turns.isEmpty, "\(shape.name): \(turns)")
        }
        #expect(try self.course(SyntheticCourse.outAndBack()).turns.map(\.direction) == [.uTurn])
    }

    /// Simplified for a small device: far fewer points, the line within its tolerance, the same
    /// length and turns.
    @Test func aSimplifiedCourseKeepsItsLengthAndTurns() throws {
        for shape in Self.shapes {
            let course = try course(shape)
            let simple = CourseShape.simplified(course, tolerance: 3)
            #expect(simple.points.count < course.points.count / 4 || shape.name != "streets", "\(shape.name)")
            #expect(simple.length == course.length && simple.turns == course.turns)
            for point in course.points where point.distance.truncatingRemainder(dividingBy: 50) < 2 {
                let match = try #require(simple.match(point.position, near: point.distance, pull: 1))
                #expect(match.away <= 3.01, "\(shape.name) at \(point.distance): \(match.away) m")
            }
        }
    }

    /// A start partway along: followed from there, the turns behind not cued; the time to go at
    /// the average speed.
    @Test func aStartPartwayAlongAndTheTimeToGo() throws {
        let streets = SyntheticCourse.streets()
        var follower = CourseFollower(course: try course(streets))
        let fixes = SyntheticCourse.run(streets, noise: 0, seed: 1).filter { $0.along >= 800 }
        var events: [CourseFollower.Event] = []
        for fix in fixes.prefix(10) { events += follower.fix(fix.position, at: fix.time) }
        let along = try #require(follower.along)
        #expect(abs(along - 827) < 5)
        let cued = events.compactMap { if case .turnAhead(let turn, _) = $0 { turn.distance } else { nil } }
        #expect(cued.count == 1 && abs(cued[0] - 900) < 1, "\(cued)")
        let progress = follower.progress(averageSpeed: 3)
        #expect(abs(progress.toGo - (follower.course.length - along)) < 0.001)
        #expect(abs((progress.secondsToGo ?? 0) - progress.toGo / 3) < 0.001)
        #expect(follower.progress(averageSpeed: 0).secondsToGo == nil)
    }

    @Test func aCourseNeedsTwoDistinctPlausiblePoints() {
        let here = GeoPoint(latitude: 48.2, longitude: 16.37)
        #expect(Course(name: "x", positions: [here, here]) == nil)
        #expect(Course(name: "x", positions: [here, GeoPoint(latitude: 0, longitude: 0)]) == nil)
        #expect(Course(name: "x", positions: [here, GeoPoint(latitude: 48.201, longitude: 16.37)]) != nil)
    }
}
