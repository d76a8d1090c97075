import Course
import Engine
import PhoneLinkContract
import PhoneLinkMessages
import PhoneLinkWire
import SessionCore
import SyntheticReceivers
import Testing
import TrackCore

/// Courses from the phone through the engine: each part answered durably, its row in the batch of
/// the command's own; the course kept when its last part comes, whatever their order; a repeated
/// part answered again and not taken twice; parts that are not a course refused, and what a restart
/// finds in the log taken up again.
@Suite("Engine core: courses kept from the phone")
struct SessionEngineCourseTests {
    /// An out-and-back of 2501 points, unsimplified: 12.5 kB (5 bytes a point), four parts.
    static let course = Course(name: "Prater out and back", positions: SyntheticCourse.outAndBack().positions)!
    static let bytes = CourseWire.encode(course)

    static func parts(id: String = "c-1", of bytes: [UInt8] = bytes) -> [CoursePart] {
        CourseWire.parts(of: bytes, id: id).map {
            CoursePart(
                courseID: $0.courseID,
                index: Int($0.index),
                count: Int($0.count),
                totalBytes: Int($0.totalBytes),
                bytes: [UInt8]($0.bytes)
            )
        }
    }

    /// The part sent from the phone under `id`, and the durable answer to it.
    private func send(_ harness: inout EngineHarness, _ id: String, _ part: CoursePart) -> CommandReply? {
        let token = harness.courseCommand(id: id, part)
        guard case .command(let reply)? = harness.reply(token) else {
            Issue.record("\(id) not answered: \(String(describing: harness.reply(token)))")
            return nil
        }
        return reply
    }

    @Test func partsInAnyOrderMakeTheCourseOnceTheLastIsDurable() throws {
        var harness = EngineHarness(phoneLink: true)
        let parts = Self.parts()
        #expect(parts.count == 4 && Self.bytes.count > 3 * CourseWire.partBytes)
        var replies: [CommandReply] = []
        for index in [2, 0, 3] {
            let reply = try #require(send(&harness, "p\(index)", parts[index]))
            #expect(reply.accepted, "\(reply.message)")
            replies.append(reply)
        }
        #expect(replies.last?.message == "part 4 of 4 of a course kept (3 here)")
        #expect(harness.engine.courses.course(named: Self.course.name) == nil)
        // A part again under its id: its first answer, not taken twice.
        #expect(send(&harness, "p3", parts[3]) == replies[2])
        let last = try #require(send(&harness, "p1", parts[1]))
        #expect(last.accepted && last.message == "course \"Prater out and back\" kept: 5.0 km, 2501 points, 1 turns")
        let kept = try #require(harness.engine.courses.course(named: Self.course.name))
        #expect(kept.points.count == Self.course.points.count && abs(kept.length - Self.course.length) < 0.01)
        // The log has each part once, then the whole course, each in its command's batch.
        let stored = harness.disk.compactMap { row -> String? in
            switch row {
            case .coursePart(let part): "part \(part.index)"
            case .courseKept(let id, let name, let bytes): "\(id) \(name) \(bytes == Self.bytes)"
            default: nil
            }
        }
        #expect(stored == ["part 2", "part 0", "part 3", "c-1 Prater out and back true"])
        #expect(harness.engine.courses.arriving.isEmpty)
    }

    /// Parts whose numbers disagree are refused at once; parts that are all there and are not a
    /// course are refused with the reason and dropped; no course is kept from either.
    @Test func partsThatAreNotACourseAreRefusedWithTheirReason() throws {
        var harness = EngineHarness(phoneLink: true)
        var part = Self.parts()[0]
        part.bytes.removeLast()
        var reply = try #require(send(&harness, "short", part))
        #expect(reply.refusal == .invalid && reply.message == "part 0 has 4095 bytes, not 4096")
        part = Self.parts()[0]
        part.count = 9
        reply = try #require(send(&harness, "count", part))
        #expect(reply.refusal == .invalid && reply.message.hasPrefix("part 0 of 9 of a course of"))
        part = Self.parts()[3]
        part.totalBytes = CourseWire.maximumBytes + 1
        reply = try #require(send(&harness, "huge", part))
        #expect(reply.refusal == .invalid && reply.message.hasPrefix("a course of 1048577 bytes"))
        // Bytes that are not a course: a message of one point; then one whose distances shrink.
        var one = CourseWire.message(Self.course)
        one.latE7 = [one.latE7[0]]
        one.lonE7 = [one.lonE7[0]]
        one.distanceCm = [0]
        for (id, message) in [("one", one), ("bent", Self.shrunk())] {
            let bytes = CourseWire.encode(message)
            for (index, part) in Self.parts(id: id, of: bytes).enumerated() {
                reply = try #require(send(&harness, "\(id)-\(index)", part))
            }
            #expect(reply.refusal == .invalid && reply.message.contains("are not a course"), "\(reply.message)")
        }
        #expect(harness.engine.courses.kept.isEmpty && harness.engine.courses.arriving.isEmpty)
        #expect(!harness.disk.contains { if case .courseKept = $0 { true } else { false } })
    }

    /// A course whose every step is 1 m, though its points are 2 m apart.
    static func shrunk() -> Wearbridge_Link_V1_Course {
        var message = CourseWire.message(course)
        message.distanceCm = message.distanceCm.enumerated().map { $0.offset == 0 ? 0 : 100 }
        return message
    }

    /// A restart finds two parts in the log: the other two complete the course. A newer version
    /// under the same name replaces it.
    @Test func partsFromTheLogAreTakenUpAfterARestartAndANewVersionReplacesTheOld() throws {
        let parts = Self.parts()
        var harness = EngineHarness(phoneLink: true, courses: CourseShelf(parts: Array(parts.prefix(2))))
        #expect(send(&harness, "p2", parts[2])?.accepted == true)
        #expect(send(&harness, "p3", parts[3])?.message.hasPrefix("course") == true)
        #expect(harness.engine.courses.kept[Self.course.name]?.id == "c-1")
        let shorter = Course(
            name: Self.course.name,
            positions: Array(SyntheticCourse.outAndBack().positions.prefix(600))
        )!
        for (index, part) in Self.parts(id: "c-2", of: CourseWire.encode(shorter)).enumerated() {
            #expect(send(&harness, "v2-\(index)", part)?.accepted == true)
        }
        let kept = try #require(harness.engine.courses.kept[Self.course.name])
        #expect(kept.id == "c-2" && kept.course.points.count == 600)
    }
}

/// A session that follows a kept course: the start names it (an unknown name is refused and starts
/// nothing); each accepted fix moves the wearer along it; off course, back on it, each turn ahead
/// and the finish are events of the session (logged, announced once each); status shows the way
/// to go.
@Suite("Engine core: following a course")
struct SessionEngineFollowingTests {
    static let streets = SyntheticCourse.streets()

    /// The receiver's fixes of a run along the streets at 3 m/s, by default with a detour 120 m to
    /// the right between 150 m and 250 m along.
    static func fixes(
        seed: UInt64 = 5,
        detour: SyntheticCourse.Detour? = .init(at: 150, out: -120, back: 250)
    ) -> [Fix] {
        SyntheticCourse.run(streets, noise: 2, seed: seed, detour: detour).map { run in
            let t = StraightLine.t0 + run.time
            return Fix(
                mode: 3,
                time: GPSTime(seconds: t),
                position: run.position,
                errorEast: 2,
                errorNorth: 2,
                horizontalError: 3,
                speed: 3,
                speedError: 0.3,
                receivedAt: StraightLine.received(t)
            )
        }
    }

    private func shelf() throws -> CourseShelf {
        let course = try #require(Course(name: "Streets", positions: Self.streets.positions))
        let simple = CourseShape.simplified(course, tolerance: 3)
        let bytes = CourseWire.encode(simple)
        return CourseShelf(kept: [CourseShelf.Kept(id: "c", course: try CourseWire.decode(bytes), bytes: bytes)])
    }

    private func reply(_ harness: EngineHarness, _ token: ReplyToken) -> CommandReply? {
        if case .command(let reply)? = harness.reply(token) { reply } else { nil }
    }

    private func start(_ harness: inout EngineHarness, id: String, course: String) -> CommandReply? {
        let token = harness.command(.start, id: id, course: course)
        return reply(harness, token)
    }

    @Test func aStartNamingAnUnknownCourseIsRefusedAndStartsNothing() throws {
        var harness = EngineHarness(courses: try shelf())
        let refused = try #require(start(&harness, id: "s1", course: "Ringstrasse"))
        #expect(refused.refusal == .invalid && refused.message.hasPrefix("no course named \"Ringstrasse\""))
        #expect(harness.sessionID == nil && harness.engine.follower == nil)
    }

    @Test func theCourseIsFollowedWithItsEventsLoggedAndAnnouncedOnce() throws {
        var harness = EngineHarness(phoneLink: true, courses: try shelf())
        let started = try #require(start(&harness, id: "s", course: "Streets"))
        #expect(started.accepted, "\(started.message)")
        let fixes = Self.fixes()
        harness.ride(Array(fixes.prefix(30)))
        let midway = try #require(harness.status()?.figures?.course)
        #expect(midway.name == "Streets" && abs(midway.length - 2000) < 1 && midway.state == .onCourse)
        #expect(abs(midway.done - 87) < 15, "\(midway.done) m done after 29 s at 3 m/s")
        harness.ride(Array(fixes.dropFirst(30)))
        let events = harness.announcements.compactMap { if case .course(let event) = $0.event { event } else { nil } }
        let names = events.map { event -> String in
            switch event {
            case .following: "following"
            case .offCourse: "off"
            case .backOnCourse: "back"
            case .turnAhead(let direction, _): direction.rawValue
            case .finished: "finished"
            }
        }
        #expect(names == ["following", "off", "back", "left", "right", "right", "right", "finished"], "\(names)")
        for case .turnAhead(_, let metres) in events { #expect(metres > 80 && metres <= 100, "\(metres)") }
        // Logged as the session's events, in order.
        let logged = harness.disk.compactMap { row -> CourseEvent? in
            if case .event(_, let announcement) = row, case .course(let event) = announcement.event {
                event
            } else {
                nil
            }
        }
        #expect(logged == events)
        let end = try #require(harness.status()?.figures?.course)
        #expect(end.state == .finished && end.toGo == 0 && end.done == end.length)
        // The session's end tells the phone where it stood on the course: at its end.
        harness.command(.end, id: "e")
        let ended = harness.logged.compactMap { row -> LinkSnapshot.Course?? in
            if case .outbox(.ended(_, _, _, _, let course), _) = row { course } else { nil }
        }
        #expect(ended.count == 1 && ended.first??.state == .finished && ended.first??.toGo == 0, "\(ended)")
    }
}

/// A daemon restarted mid-course: the follower is brought back by the session's accepted positions
/// and goes on; what it says from there is what an uninterrupted run says from there.
@Suite("Engine core: a course followed across a restart")
struct SessionEngineCourseRestartTests {
    private func events(_ harness: EngineHarness) -> [CourseEvent] {
        harness.announcements.compactMap { if case .course(let event) = $0.event { event } else { nil } }
    }

    private func harness(disk: [SessionRow] = [], open: [RecoveredSession] = []) throws -> EngineHarness {
        let course = try #require(Course(name: "Streets", positions: SyntheticCourse.streets().positions))
        let bytes = CourseWire.encode(CourseShape.simplified(course, tolerance: 3))
        let shelf = CourseShelf(kept: [CourseShelf.Kept(id: "c", course: try CourseWire.decode(bytes), bytes: bytes)])
        return EngineHarness(open: open, disk: disk, courses: shelf)
    }

    @Test func theFollowerComesBackWhereItWas() throws {
        let fixes = SessionEngineFollowingTests.fixes()
        var whole = try harness()
        whole.command(.start, id: "s", course: "Streets")
        whole.ride(fixes)
        var before = try harness()
        before.command(.start, id: "s", course: "Streets")
        before.ride(Array(fixes.prefix(400)))
        let id = try #require(before.sessionID)
        let track = before.disk.compactMap { row -> (position: GeoPoint, at: Double)? in
            guard case .fix(_, _, let fix, .accepted(let smoothed)) = row, let at = fix.receivedAt else { return nil }
            return (smoothed, at)
        }
        var after = try harness(disk: before.disk, open: [try #require(before.journal(of: id))])
        let followed = after.engine.follow(recovered: "Streets", track: track)
        let unknown = after.engine.follow(recovered: "Ringstrasse", track: track)
        #expect(followed && !unknown, "a course no longer kept is not followed")
        let resumedAt = try #require(after.engine.follower?.along)
        #expect(abs(resumedAt - (before.engine.follower?.along ?? 0)) < 0.001)
        after.ride(Array(fixes.dropFirst(400)))
        #expect(events(before).count >= 4 && !events(after).isEmpty)
        #expect(events(before) + events(after) == events(whole), "\(events(after))")
    }
}
