import Course
import Foundation
import Harness
import PhoneLinkContract
import PhoneLinkWire
import PhoneServer
import RaceStore
import RelayContract
import Testing
import TrackCore

/// Races on a course in the phone's file, against real SQLite: the race's course kept among the
/// phone's courses (the inviter's own reused, a stranger's of the same name kept beside it), the
/// wearable's distance to go queued toward the relay as the distance along the course, and the
/// partner's distance along it handed on to the wearable.
@Suite struct RaceCourseStoreTests {
    let inbox: Inbox
    let store: RaceStore

    init() throws {
        inbox = try Inbox.open(directory: try temporaryDirectory("race-course-store"), parts: [RaceStore.self])
        store = RaceStore(inbox)
    }

    static func course(_ name: String, east: Double = 1000) throws -> Course {
        let frame = LocalFrame(origin: GeoPoint(latitude: 52.5, longitude: 13.4))
        let positions = stride(from: 0.0, through: east, by: 100).map {
            frame.unproject(LocalPoint(east: $0, north: 0))
        }
        // As the relay holds it: rounded to its units, read back as a stranger's.
        return try RelayCourse(try #require(Course(name: name, positions: positions))).course()
    }

    @Test func theInvitersOwnCourseIsReusedAndAStrangersOfTheSameNameKeptBesideIt() async throws {
        let own = try Self.course("Tiergarten")
        let kept = PhoneCourse(course: own, id: "mine", source: "t.gpx", filePoints: 11, addedAt: 1)
        #expect(try await inbox.courses.add(kept, replacing: false))
        let same = try await inbox.courses.keep(raceCourse: own, label: "race 0a1b2c3d", at: 2)
        #expect(same.id == "mine" && same.course.name == "Tiergarten", "the inviter's own course is reused")
        let other = try Self.course("Tiergarten", east: 800)
        let beside = try await inbox.courses.keep(raceCourse: other, label: "race 0a1b2c3d", at: 3)
        #expect(beside.course.name == "Tiergarten (race 0a1b2c3d)" && beside.id != "mine")
        #expect(abs(beside.course.length - 800) < 0.01)
        #expect(try inbox.courses.named("Tiergarten")?.id == "mine", "the runner's own course is untouched")
        let again = try await inbox.courses.keep(raceCourse: other, label: "race 0a1b2c3d", at: 4)
        #expect(again.id == beside.id, "the same race's course again is kept once")
        #expect(try inbox.courses.all().count == 2)
    }

    /// The inviter's course as a file gave it (positions to the last digit, distances summed
    /// segment by segment) comes back from the relay as the very bytes the wearable keeps: the
    /// inviter's phone reuses its own course, and both runners follow one course.
    @Test func aCourseFromAFileComesBackFromTheRelayAsTheBytesTheWearableKeeps() throws {
        let frame = LocalFrame(origin: GeoPoint(latitude: 47.0712345678, longitude: 15.4398765432))
        let positions = (0..<400).map { index -> GeoPoint in
            let east = Double(index) * 2.37
            return frame.unproject(LocalPoint(east: east, north: 40 * sin(east / 97)))
        }
        let file = try #require(Course(name: "Schlossberg", positions: positions))
        let simple = CourseShape.simplified(file, tolerance: 3)
        let back = try RelayCourse(simple).course()
        #expect(CourseWire.encode(back) == CourseWire.encode(simple))
        #expect(abs(back.length - simple.length) < 0.01 && back.turns.count == simple.turns.count)
    }

    @Test func theWearablesDistanceToGoGoesToTheRelayAsTheDistanceAlongTheCourse() async throws {
        let run = "00000000-0000-0000-0000-0000000000c1"
        try await store.bindRace(run: run, wearable: "pi", partner: "bob", startAt: 1000, state: .accepted)
        try await store.checkedCourse(run: run, name: "Tiergarten", length: 1000)
        let race = try #require(try store.relayRace(run: run))
        #expect(race.course == "Tiergarten" && race.courseLength == 1000 && race.courseChecked)
        let session = String(repeating: "cd", count: 8)
        let started = Wearbridge_Link_V1_Payload.with {
            $0.raceStarted = .with {
                $0.session = session
                $0.run = run
                $0.clock = "gps"
            }
        }
        #expect(try await inbox.link.commit(message(seq: 1, started)))
        let snapshot = Wearbridge_Link_V1_Payload.with {
            $0.snapshot = .with {
                $0.session = Data(repeating: 0xCD, count: 16)
                $0.state = .active
                $0.distanceDm = 4321
                $0.elapsedS = 140
                $0.course = .with {
                    $0.toGoDm = 6012
                    $0.state = .onCourse
                }
            }
        }
        var snapshotMessage = try message(seq: 2, snapshot)
        snapshotMessage.messageClass = .snapshot
        snapshotMessage.session = session
        #expect(try await inbox.link.commit(snapshotMessage))
        let queued = try store.relayOutbox(run: run)
        #expect(queued.map(\.kind) == [.started, .snapshot])
        #expect(queued[0].course == nil)
        let along = try #require(queued[1].course)
        #expect(abs(along - 398.8) < 1e-9, "1000 m less 601.2 m to go")
        // The session's end: its final figures go with where it stood on the course then.
        let ended = Wearbridge_Link_V1_Payload.with {
            $0.sessionEnded = .with {
                $0.session = session
                $0.distanceM = 455.5
                $0.elapsedS = 150
                $0.movingS = 149
                $0.course = .with {
                    $0.toGoDm = 5803
                    $0.state = .onCourse
                }
            }
        }
        #expect(try await inbox.link.commit(message(seq: 3, ended)))
        let finished = try #require(try store.relayOutbox(run: run).last)
        #expect(finished.kind == .finished && finished.distance == 455.5)
        #expect(abs(try #require(finished.course) - 419.7) < 1e-9, "1000 m less 580.3 m to go")
    }

    @Test func thePartnersDistanceAlongTheCourseReachesTheWearable() async throws {
        let run = "00000000-0000-0000-0000-0000000000c2"
        try await store.bindRace(run: run, wearable: "pi", partner: "bob", startAt: 1000, state: .accepted)
        try await inbox.pool.write { db in
            try db.execute(sql: "UPDATE relay_race SET session = 'cdcd' WHERE run = ?", arguments: [run])
        }
        func snapshot(_ seq: Int64, course: Double?) -> RaceStore.PartnerItem {
            RaceStore.PartnerItem(
                source: .message,
                key: seq,
                runner: "bob",
                messageClass: .snapshot,
                kind: "snapshot",
                distance: 500,
                elapsed: 100,
                paused: false,
                body: "{}",
                at: 1100,
                course: course
            )
        }
        try await store.commitPartner(run: run, items: [snapshot(1, course: nil)], receivedAt: 1100)
        #expect(try store.partnerSnapshots(wearable: "pi", shownFor: 10).map(\.hasCourseDm) == [false])
        try await store.commitPartner(run: run, items: [snapshot(2, course: 321.44)], receivedAt: 1101)
        let handed = try store.partnerSnapshots(wearable: "pi", shownFor: 10)
        #expect(handed.map(\.seq) == [2] && handed.map(\.courseDm) == [3214] && handed.map(\.distanceDm) == [5000])
    }

    func message(seq: Int, _ payload: Wearbridge_Link_V1_Payload) throws -> InboxMessage {
        try InboxMessage.fromPi(seq: seq, payload)
    }
}
