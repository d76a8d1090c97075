import Course
import DashboardCore
import PhoneLinkContract
import Testing
import TrackCore

@testable import DashboardServer
@testable import PhoneServer

/// The course a session follows reaches the page in the track's frame, from the phone's own copy of
/// the course its `course_following` event names.
@Suite struct TrackPieceTests {
    static let loop = Course(
        name: "park loop",
        positions: [
            GeoPoint(latitude: 52.0, longitude: 13.0), GeoPoint(latitude: 52.001, longitude: 13.0),
            GeoPoint(latitude: 52.001, longitude: 13.001),
        ]
    )!

    static func event(_ seq: Int, _ kind: String, _ detail: String) -> BackfillRecord {
        BackfillRecord(
            seq: seq,
            row: .with {
                $0.event = .with {
                    $0.time = 1000
                    $0.kind = kind
                    $0.detailJson = detail
                }
            }
        )
    }

    static func fix(_ seq: Int, latitude: Double) -> BackfillRecord {
        BackfillRecord(
            seq: seq,
            row: .with {
                $0.fix = .with {
                    $0.time = 1000 + Double(seq)
                    $0.verdict = "accepted"
                    $0.smoothedLat = latitude
                    $0.smoothedLon = 13.0
                }
            }
        )
    }

    @Test func theNamedCourseIsSentOnceInTheTracksFrame() throws {
        var asked: [String] = []
        var piece = TrackPiece(paused: false, view: TrackView()) { name in
            asked.append(name)
            return name == "park loop" ? Self.loop : nil
        }
        piece.take(Self.fix(1, latitude: 52.0005))
        piece.take(Self.event(2, "course_following", #"{"course":"park loop","length_m":179.9}"#))
        let body = piece.body(session: "s1", after: 0, through: 2)
        let course = try #require(body.course)
        #expect(asked == ["park loop"])
        #expect(course.name == "park loop" && abs(course.lengthM - Self.loop.length) < 0.06)
        #expect(course.points.count == 3)
        #expect(abs(course.points[0][1] + 55.6) < 0.1 && course.points[0][0] == 0, "south of the first fix")
        #expect(body.points == [[0, 0, 0, 0]])
    }

    @Test func aCourseThePhoneDoesNotKeepOrAnEventWithoutANameDrawsNone() {
        var piece = TrackPiece(paused: false, view: TrackView()) { _ in nil }
        piece.take(Self.event(1, "course_following", #"{"course":"gone"}"#))
        piece.take(Self.event(2, "course_following", "not json"))
        #expect(piece.body(session: "s1", after: 0, through: 2).course == nil)
    }
}
