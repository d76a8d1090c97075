import Energy
import Foundation
import PhoneLinkContract
import PhoneLinkMessages
import PhoneLinkWire
import SessionCore
import SwiftProtobuf
import Testing
import TrackCore

/// The wire form of link messages: compact snapshots, names both ends share.
@Suite("Phone link: wire format")
struct WireTests {
    @Test func aSnapshotWithEveryFieldAtItsLargestPlausibleValueFitsIn80Bytes() throws {
        let snapshot = LinkSnapshot(
            sessionID: "685330d3-b4ce-489e-980f-696cef78dabe",
            state: .paused(.auto),
            distance: 250_000,  // 250 km
            elapsed: 30 * 3600,
            moving: 29 * 3600,
            pace: 3599,
            averagePace: 3599,
            heartRate: 220,
            zone: 5,
            gps: .poor,
            strapLost: true,
            gpsTime: 1_795_000_000.123,
            zoneFloors: [98, 117, 137, 156, 176],
            energy: 9999,  // a day's ruck
            climbed: 4999,
            steps: 99_999,  // a day's walking
            course: LinkSnapshot.Course(toGo: 999_999.9, away: 9999, state: .rejoining, secondsToGo: 360_000)
        )
        let payload = LinkMessage.snapshot(snapshot).payload
        let bytes: [UInt8] = try payload.snapshot.serializedBytes()
        #expect(bytes.count <= 100, "snapshot is \(bytes.count) bytes")
        #expect(payload.snapshot.energyKcal == 9999 && payload.snapshot.climbedM == 4999)
        #expect(payload.snapshot.steps == 99_999)
        #expect(payload.snapshot.course.toGoDm == 9_999_999 && payload.snapshot.course.state == .rejoining)
        #expect(payload.snapshot.course.awayM == 9999 && payload.snapshot.course.toGoS == 360_000)
        let decoded = try Wearbridge_Link_V1_Payload(serializedBytes: try payload.serializedBytes() as [UInt8])
        #expect(uuidText(decoded.snapshot.session) == snapshot.sessionID)
        #expect(decoded.snapshot.distanceDm == 2_500_000 && decoded.snapshot.state == .autoPaused)
        #expect(decoded.messageKind.rawValue == "snapshot" && decoded.sessionText == snapshot.sessionID)
    }

    @Test func aRefusalTravelsWithItsReasonCode() {
        let reply = CommandReply(
            commandID: "c",
            command: .pause,
            accepted: false,
            message: "the session is already paused",
            sessionID: "s",
            state: .paused(.command),
            refusal: .alreadyPaused
        )
        let wire = LinkMessage.commandReply(reply).payload.commandReply
        #expect(!wire.ok && wire.reason == .alreadyPaused && wire.kind == .pause && wire.state == .paused)
        for code in RefusalCode.allCases { #expect(RefusalCode(wire: code.wire) == code) }
    }

    @Test func anUnknownPayloadFromANewerVersionDecodesAsUnknownNotAsAnError() throws {
        // Field 99 of Payload does not exist in v1: a newer wearable's message kind.
        let bytes: [UInt8] = [0x9A, 0x06, 0x02, 0x08, 0x01]
        let payload = try Wearbridge_Link_V1_Payload(serializedBytes: bytes)
        #expect(payload.kind == nil && payload.messageKind.rawValue == "unknown")
    }

    @Test func aCommandIsReadTypedFromTheWireAndSentBackTheSame() throws {
        let wire = Wearbridge_Link_V1_Command(
            id: "c1",
            kind: .start,
            activity: .cycling,
            issuedAt: 100,
            validFor: 30,
            now: 102.5
        )
        #expect(wire.ageMs == 2500 && wire.validForMs == 30_000 && wire.issuedAtMs == 100_000)
        let command = try PhoneCommand(wire: wire)
        #expect(command == PhoneCommand(id: "c1", kind: .start, activity: .cycling, validityLeft: 27.5))
        var unlimited = wire
        unlimited.validForMs = 0
        unlimited.ageMs = 0
        #expect(try PhoneCommand(wire: unlimited).validityLeft == PhoneCommand.defaultValidity)
    }

    @Test func anUnreadableCommandIsRefusedWithItsReasonNeverHalfRead() {
        func reason(_ edit: (inout Wearbridge_Link_V1_Command) -> Void) -> String? {
            var command = Wearbridge_Link_V1_Command(
                id: "c1",
                kind: .pause,
                activity: nil,
                issuedAt: 0,
                validFor: 60,
                now: 0
            )
            edit(&command)
            do {
                _ = try PhoneCommand(wire: command)
                return nil
            } catch {
                return error.reason
            }
        }
        #expect(reason { _ in } == nil)
        #expect(reason { $0.commandID = "" } == "a command needs an id (a UUID) of at most 128 bytes")
        #expect(reason { $0.commandID = String(repeating: "x", count: 129) } != nil)
        #expect(reason { $0.kind = .unspecified } == "unknown command")
        #expect(reason { $0.kind = .UNRECOGNIZED(42) } == "unknown command")
        #expect(reason { $0.activity = "swimming" } == Activity.refusal(forUnknown: "swimming"))
        #expect(reason { $0.bodyMassKg = 900 } == "body mass 900.0 kg is outside 25-250 kg")
        #expect(reason { $0.loadKg = -.infinity } != nil)
        #expect(reason { $0.loadKg = .nan } != nil)
    }

    /// A course's removal names the course; a race on a course names it in its order; a name that
    /// is not one clean line is refused.
    @Test func aCoursesRemovalAndARaceOnACourseNameTheCourse() throws {
        var remove = Wearbridge_Link_V1_Command(
            id: "r",
            kind: .removeCourse,
            activity: nil,
            issuedAt: 0,
            validFor: 60,
            now: 0
        )
        #expect(throws: UnreadableCommand.self) { try PhoneCommand(wire: remove) }
        remove.course = "Prater loop"
        let removal = try PhoneCommand(wire: remove)
        #expect(removal.kind == .removeCourse && removal.course == "Prater loop")
        #expect(remove.kind == .courseRemove && SessionCommand.removeCourse.wire == .courseRemove)
        remove.course = "two\nlines"
        #expect(throws: UnreadableCommand.self) { try PhoneCommand(wire: remove) }
        var race = Wearbridge_Link_V1_Command(id: "g", kind: .race, activity: nil, issuedAt: 0, validFor: 60, now: 0)
        race.race = .with {
            $0.run = "run-1"
            $0.partner = "bob"
            $0.startAtMs = 1_750_000_000_000
            $0.course = "Prater loop"
        }
        guard case .order(let order)? = try PhoneCommand(wire: race).race else {
            Issue.record("no race order")
            return
        }
        #expect(order.course == "Prater loop")
        race.race.course = ""
        guard case .order(let plain)? = try PhoneCommand(wire: race).race else { return }
        #expect(plain.course == nil)
        race.race.course = String(repeating: "x", count: 65)
        #expect(throws: UnreadableCommand.self) { try PhoneCommand(wire: race) }
    }

    /// A start's body mass and load ride in the queued command's body and come out as sent; a
    /// start that says neither carries no body.
    @Test func aStartsCarriageTravelsInTheCommandsBody() throws {
        let carriage = try CarriageOverride.checked(bodyMass: 81.5, load: 22).get()
        var wire = Wearbridge_Link_V1_Command(
            id: "c2",
            kind: .start,
            activity: .walking,
            issuedAt: 0,
            validFor: 60,
            now: 0
        )
        try wire.merge(serializedBytes: try #require(carriage.commandBody))
        #expect(try PhoneCommand(wire: wire).carriage == carriage)
        #expect(CarriageOverride.none.commandBody == nil)
        let loadOnly = try CarriageOverride.checked(bodyMass: nil, load: 10).get()
        var ruck = Wearbridge_Link_V1_Command(id: "c3", kind: .start, activity: nil, issuedAt: 0, validFor: 60, now: 0)
        try ruck.merge(serializedBytes: try #require(loadOnly.commandBody))
        #expect(try PhoneCommand(wire: ruck).carriage == loadOnly)
    }

    @Test func everyMessageIsListedUnderTheSameKindOnBothEndsOfTheWire() {
        let id = "685330d3-b4ce-489e-980f-696cef78dabe"
        let summary = TrackSession(activity: .running).summary
        var messages: [LinkMessage] = [
            .snapshot(LinkSnapshot(sessionID: id, state: .active)),
            .started(sessionID: id, activity: .running, startedAt: TimeAnchor(source: .gps, seconds: 1)),
            .paused(sessionID: id, auto: true, distance: 1, elapsed: 2),
            .resumed(sessionID: id, auto: false, distance: 1, elapsed: 2),
            .ended(sessionID: id, reason: .command, summary: summary, endedAt: nil),
            .split(sessionID: id, Split(index: 1, distance: 1000, duration: 300, endTimer: 300)),
            .commandReply(
                CommandReply(commandID: "c", command: .end, accepted: true, message: "", sessionID: id, state: .idle)
            ),
        ]
        messages += LinkNotice.Kind.allCases.map { .notice(sessionID: id, LinkNotice($0, detail: "")) }
        for message in messages {
            #expect(message.payload.messageKind == message.kind, "\(message)")
        }
        #expect(Set(messages.map(\.kind)).count == messages.count, "one kind per message")
    }

    /// The end carries the steps an IMU counted (0 where none did, which the phone shows as none).
    @Test func theEndCarriesTheSessionsSteps() {
        let id = "685330d3-b4ce-489e-980f-696cef78dabe"
        var summary = TrackSession(activity: .walking).summary
        #expect(
            LinkMessage.ended(sessionID: id, reason: .command, summary: summary, endedAt: nil)
                .payload.sessionEnded.steps == 0
        )
        summary.steps = 6_412
        #expect(
            LinkMessage.ended(sessionID: id, reason: .command, summary: summary, endedAt: nil)
                .payload.sessionEnded.steps == 6_412
        )
    }

    /// A session that followed a course ends with where it stood on it; one that followed none
    /// ends without a course.
    @Test func theEndCarriesTheCourseWhereItStood() {
        let id = "685330d3-b4ce-489e-980f-696cef78dabe"
        let summary = TrackSession(activity: .running).summary
        let none = LinkMessage.ended(sessionID: id, reason: .command, summary: summary, endedAt: nil)
        #expect(!none.payload.sessionEnded.hasCourse)
        let course = LinkSnapshot.Course(toGo: 482.4, away: 3, state: .onCourse, secondsToGo: nil)
        let ended = LinkMessage.ended(sessionID: id, reason: .command, summary: summary, endedAt: nil, course: course)
            .payload.sessionEnded
        #expect(ended.hasCourse && ended.course.toGoDm == 4824 && ended.course.awayM == 3)
    }
}
