import Course
import Engine
import PhoneLinkWire
import RaceCore
import SessionCore
import SyntheticReceivers
import Testing
import TrackCore

/// A race on a course and a course's removal on the wearable's engine: the race is armed only with
/// its course kept, its session follows the course from the agreed instant, and both runners are
/// compared by the distance along it; a course is forgotten by command, but not while a session
/// under way or an armed race follows it.
@Suite("Engine core: races on a course, and removing a course")
struct SessionEngineRaceCourseTests {
    private func harness() throws -> EngineHarness {
        let course = try #require(Course(name: "Streets", positions: SessionEngineFollowingTests.streets.positions))
        let bytes = CourseWire.encode(CourseShape.simplified(course, tolerance: 3))
        let shelf = CourseShelf(kept: [CourseShelf.Kept(id: "c", course: try CourseWire.decode(bytes), bytes: bytes)])
        return EngineHarness(phoneLink: true, courses: shelf)
    }

    /// The durable answer to what `send` asked of the engine.
    private func ask(_ harness: inout EngineHarness, _ send: (inout EngineHarness) -> ReplyToken) -> CommandReply? {
        let token = send(&harness)
        return if case .command(let reply)? = harness.reply(token) { reply } else { nil }
    }

    private func order(course: String?) -> RaceInstruction {
        .order(RaceOrder(run: "run-c", partner: "bea", startAt: StraightLine.t0 + 10, course: course))
    }

    /// Wakes the engine at each instant it asks for until the race's session starts.
    private func countDown(_ harness: inout EngineHarness) {
        var woken = 0
        while let wake = harness.actions.reversed().compactMap({ if case .wake(let at) = $0 { at } else { nil } })
            .first,
            harness.sessionID == nil, woken < 30
        {
            woken += 1
            harness.now.monotonic = max(harness.now.monotonic, wake)
            harness.send(.tick)
        }
    }

    @Test func aRaceOnACourseNotKeptIsNotReadyAndOneKeptIsFollowedAndComparedAlongIt() throws {
        var harness = try harness()
        let fixes = SessionEngineFollowingTests.fixes(seed: 7, detour: nil)
        harness.ride(Array(fixes.prefix(4)))
        let missing = try #require(ask(&harness, { $0.raceCommand(.race, id: "r0", order(course: "Ring")) }))
        #expect(missing.refusal == .notReady && missing.message.contains("the race's course \"Ring\" is not kept here"))
        #expect(harness.engine.race == nil)
        let armed = try #require(ask(&harness, { $0.raceCommand(.race, id: "r1", order(course: "Streets")) }))
        #expect(armed.accepted, "\(armed.message)")
        // An armed race's course is not forgotten.
        let kept = try #require(ask(&harness, { $0.command(.removeCourse, id: "x0", course: "Streets") }))
        #expect(kept.refusal == .alreadyActive && kept.message.contains("the race with bea"))
        countDown(&harness)
        #expect(harness.sessionID != nil)
        #expect(harness.engine.follower?.course.name == "Streets", "the race's session follows its course")
        let started = harness.events.compactMap {
            if case .race(.started(_, _, _, _, _, let course)) = $0 { course } else { nil }
        }
        #expect(started == ["Streets"], "the log keeps the race's course for a restart")
        harness.ride(Array(fixes.dropFirst(10).prefix(60)))
        let along = try #require(harness.engine.follower?.along)
        // The partner ran 400 m, but only 60 m of it along the course: I lead, along the course.
        harness.send(
            .partnerSnapshot(
                PartnerSnapshotReport(
                    run: "run-c",
                    sequence: 1,
                    distance: 400,
                    gpsTime: StraightLine.t0 + 69,
                    elapsed: 59,
                    paused: false,
                    expiresAt: nil,
                    courseDistance: 60
                )
            )
        )
        let race = try #require(harness.status()?.race)
        #expect(race.course == "Streets" && race.partner.distanceMetres == 60)
        let gap = try #require(race.partner.gapMetres)
        #expect(abs(gap - (along - 60)) < 5 && gap > 100, "gap \(gap) m, \(along) m along")
        // In time: I passed their 60 m along it after the start and well before their 59 s.
        let seconds = try #require(race.partner.gapSeconds)
        #expect(seconds > 20 && seconds < 59, "gap \(seconds) s")
        // While the session follows it, the course is not forgotten either.
        let following = try #require(ask(&harness, { $0.command(.removeCourse, id: "x1", course: "Streets") }))
        #expect(following.refusal == .alreadyActive && following.message.contains("end it first"))
    }

    @Test func aCourseIsRemovedOnceAndARemovalOfNoneIsAnswered() throws {
        var harness = try harness()
        let removed = try #require(ask(&harness, { $0.command(.removeCourse, id: "x", course: "Streets") }))
        #expect(removed.accepted && removed.message == "course \"Streets\" removed")
        #expect(harness.engine.courses.course(named: "Streets") == nil)
        #expect(harness.disk.contains { if case .courseRemoved(let name) = $0 { name == "Streets" } else { false } })
        // The same command again: its first answer; another removal of it: nothing to remove.
        #expect(ask(&harness, { $0.command(.removeCourse, id: "x", course: "Streets") }) == removed)
        let none = try #require(ask(&harness, { $0.command(.removeCourse, id: "y", course: "Streets") }))
        #expect(none.accepted && none.message.contains("nothing to remove"))
        let start = try #require(ask(&harness, { $0.command(.start, id: "s", course: "Streets") }))
        #expect(start.refusal == .invalid, "a start cannot follow a removed course")
    }
}
