import Foundation
import PhoneLinkContract
import PhoneRaceCore
import RaceCore
import Testing

@testable import DashboardServer
@testable import PhoneServer
@testable import RaceStore

@Suite struct InviteBodyTests {
    @Test func readsEveryField() throws {
        let body = Data(#"{"partner": "bob", "distance_m": 5000, "start_in_s": 120, "activity": "ride"}"#.utf8)
        let invitation = try RaceRoutes.invitation(body).get()
        #expect(invitation.partner.description == "bob")
        #expect(invitation.distanceMetres == 5000)
        #expect(invitation.leadSeconds == 120)
        #expect(invitation.activity == "ride")
    }

    @Test func anOpenRaceHasNoDistance() throws {
        let invitation = try RaceRoutes.invitation(Data(#"{"partner": "bob", "distance_m": null}"#.utf8)).get()
        #expect(invitation.distanceMetres == nil)
        #expect(invitation.leadSeconds == 90)
    }

    @Test(arguments: [
        ("[]", "malformed_invite"), ("not json", "malformed_invite"), (#"{"partner": 7}"#, "bad_partner"),
        (#"{"partner": "no such runner!"}"#, "bad_partner"), (#"{"partner": "bob", "distance_m": -1}"#, "bad_distance"),
        (#"{"partner": "bob", "distance_m": "5km"}"#, "bad_distance"),
        (#"{"partner": "bob", "start_in_s": 5}"#, "bad_start_in"),
        (#"{"partner": "bob", "start_in_s": 7200}"#, "bad_start_in"),
        (#"{"partner": "bob", "activity": "swim"}"#, "bad_activity"),
    ])
    func refusesWithItsReason(body: String, code: String) {
        guard case .failure(let problem) = RaceRoutes.invitation(Data(body.utf8)) else {
            Issue.record("\(body) was accepted")
            return
        }
        #expect(problem.code == code)
    }
}

@Suite struct RaceBoardEventTests {
    func item(
        _ source: PartnerNews.Source,
        _ kind: String,
        body: String = "{}",
        distance: Double? = nil,
        elapsed: Double? = nil
    )
        -> RaceStore.PartnerItem
    {
        RaceStore.PartnerItem(
            source: source,
            key: 1,
            runner: "bob",
            messageClass: kind == "snapshot" ? .snapshot : .critical,
            kind: kind,
            distance: distance,
            elapsed: elapsed,
            paused: false,
            body: body,
            at: 100
        )
    }

    @Test func thePartnersEventsAsTheWearableHearsThem() {
        #expect(RaceBoard.event(item(.message, "paused")) == .paused)
        #expect(RaceBoard.event(item(.message, "resumed")) == .resumed)
        #expect(
            RaceBoard.event(item(.message, "split", body: #"{"index":2,"duration_s":301.5}"#))
                == .split(number: 2, seconds: 301.5)
        )
        #expect(
            RaceBoard.event(item(.event, "finished", distance: 5000, elapsed: 1500))
                == .finished(elapsedSeconds: 1500, distanceMetres: 5000)
        )
        #expect(RaceBoard.event(item(.event, "abandoned")) == .abandoned)
        #expect(RaceBoard.event(item(.event, "started")) == nil)
        #expect(RaceBoard.event(item(.message, "snapshot")) == nil)
    }

    /// A race of pi's against bob, accepted, starting at 1000 s.
    static func race(distance: Double?) -> RaceStore.RelayRace {
        RaceStore.RelayRace(
            run: "r",
            wearable: "pi",
            partner: "bob",
            startAt: 1000,
            state: .accepted,
            session: nil,
            messageMark: 0,
            eventMark: 0,
            startReported: false,
            activity: nil,
            distance: distance
        )
    }

    @Test func thePartnersTimeIsTheirGPSTimeAgainstTheStart() {
        let race = Self.race(distance: nil)
        #expect(
            RaceBoard.elapsed(item(.message, "snapshot", body: #"{"gps_time":1042.5}"#, elapsed: 40), race: race)
                == 42.5
        )
        #expect(RaceBoard.elapsed(item(.message, "snapshot", elapsed: 40), race: race) == 40)
    }

    /// On a course the page judges as the wearable does: the wearable's progress is the course's
    /// length less its distance to go, nothing before it says where it is on the course; off a
    /// course, the distance run.
    @Test func onACourseTheWearablesProgressIsAlongIt() {
        var race = Self.race(distance: 1200)
        var snapshot = Wearbridge_Link_V1_Snapshot()
        snapshot.distanceDm = 4567
        #expect(RaceBoard.progress(snapshot, race: race) == 456.7)
        race.course = "Prater loop"
        race.courseLength = 1200
        #expect(RaceBoard.progress(snapshot, race: race) == nil)
        snapshot.course.toGoDm = 8000
        #expect(RaceBoard.progress(snapshot, race: race) == 400)
    }
}
