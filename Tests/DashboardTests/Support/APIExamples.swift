import Course
import DashboardCore
import PhoneLinkMessages
import PhoneRaceCore
import PhoneServer
import RaceCore
import RelayContract
import TrackCore

@testable import DashboardServer

/// Every dashboard body in every shape it takes: each optional field written and left out (or null),
/// each message kind, each command state.
enum APIExamples {
    /// A course the phone keeps, as the courses' bodies show it.
    static var course: CourseList.Course {
        let positions = [(48.2082, 16.3738), (48.2082, 16.3792), (48.2109, 16.3792)].map {
            GeoPoint(latitude: $0.0, longitude: $0.1)
        }
        let course = Course(name: "Prater loop", positions: positions)!
        return CourseList.Course(
            PhoneCourse(course: course, id: "c-1", source: "prater.gpx", filePoints: 321, addedAt: 1)
        )
    }

    static func link(full: Bool) -> LinkBody {
        LinkBody(
            state: full ? .live : .lost,
            lastSeenAgeS: full ? 0.4 : nil,
            commandsRefusedBecause: full ? "the link is stale" : nil,
            outboxDepth: 3,
            highWater: 120,
            serverTimeMs: 1_795_000_000_000
        )
    }

    static func snapshot(full: Bool) -> SnapshotBody {
        SnapshotBody(
            seq: 118,
            ageS: 0.7,
            receivedAtMs: 1_795_000_000_100,
            session: full ? "5f0c5a3e-2b1d-4c43-9a55-0d1e2f3a4b5c" : nil,
            state: full ? .active : .autoPaused,
            distanceM: 1234.5,
            elapsedS: 600,
            movingS: 590,
            paceSPerKm: full ? 290 : nil,
            avgPaceSPerKm: full ? 300 : nil,
            heartRate: full ? 151 : nil,
            zone: full ? 3 : nil,
            zoneFloorsBpm: full ? [98, 117, 137, 156, 176] : [],
            gps: full ? .good : .lost,
            strapLost: !full,
            energyKcal: full ? 412 : nil,
            climbedM: full ? 38 : nil,
            steps: full ? 3_120 : nil,
            course: full
                ? .init(toGoM: 3765.5, awayM: 42, state: .offCourse, toGoS: 1130)
                : .init(toGoM: 5000, awayM: nil, state: .notStarted, toGoS: nil)
        )
    }

    static func race(full: Bool) -> RaceBody {
        RaceBody(
            run: "0a7e5c1d-3c2b-4a19-8f00-1b2c3d4e5f60",
            partner: "bob",
            relayState: .accepted,
            startAtMs: 1_795_000_030_000,
            startsInS: full ? -120 : 25,
            distanceM: full ? 5000 : nil,
            activity: full ? "run" : nil,
            session: full ? "5f0c5a3e-2b1d-4c43-9a55-0d1e2f3a4b5c" : nil,
            partnerState: full ? .running : .waiting,
            partnerLink: full ? .live : .lost,
            partnerDistanceM: full ? 410.2 : nil,
            partnerElapsedS: full ? 119.5 : nil,
            partnerAgeS: full ? 1.1 : nil,
            ownDistanceM: full ? 402.5 : nil,
            ownElapsedS: full ? 120 : nil,
            gapM: full ? -7.7 : nil,
            gapS: full ? -3 : nil,
            leader: full ? .partner : nil,
            course: full ? "Prater loop" : nil,
            events: full
                ? [
                    .init(source: .event, kind: "started", runner: "bob", atMs: 1_795_000_030_100),
                    .init(source: .message, kind: "paused", runner: nil, atMs: 1_795_000_090_000),
                ] : []
        )
    }

    static func session(figures: SessionItem.Figures?, known: Bool) -> SessionItem {
        SessionItem(
            wearable: "pi",
            session: "5f0c5a3e-2b1d-4c43-9a55-0d1e2f3a4b5c",
            activity: known ? "running" : nil,
            distanceSource: known ? DistanceSource.footpod : nil,
            startedAtMs: known ? 1_795_000_000_000 : nil,
            ended: figures != nil,
            backfill: known ? .complete : nil,
            backfillRows: 4200,
            exportable: figures != nil && known,
            figures: figures
        )
    }

    static func run(full: Bool) -> RelayRunBody {
        RelayRunBody(
            run: "0a7e5c1d-3c2b-4a19-8f00-1b2c3d4e5f60",
            inviter: "alice",
            invitee: "bob",
            partner: "bob",
            activity: "run",
            distanceM: full ? 5000 : nil,
            state: full ? .accepted : .invited,
            expiresAtMs: 1_795_000_600_000,
            startAtMs: full ? 1_795_000_030_000 : nil
        )
    }

    static func message(_ kind: MessageKind, _ detail: MessageBody.Detail?, session: String? = "s1") -> MessageBody {
        MessageBody(
            seq: 42,
            kind: kind,
            session: session,
            receivedAtMs: 1_795_000_000_500,
            createdAtMs: 1_795_000_000_400,
            detail: detail
        )
    }

    static let ended = MessageBody.Ended(
        reason: "user",
        distanceM: 5012.3,
        elapsedS: 1800.5,
        movingS: 1750,
        pausedS: 50.5,
        splits: 5,
        avgHeartRate: 150,
        maxHeartRate: 178,
        energyKcal: 405.2,
        elevationGainM: 38.4,
        elevationLossM: 37.9,
        steps: 6_412
    )

    static var messages: [MessageBody] {
        var bare = ended
        bare.avgHeartRate = nil
        bare.maxHeartRate = nil
        bare.energyKcal = nil
        bare.elevationGainM = nil
        bare.elevationLossM = nil
        bare.steps = nil
        return [
            message(.snapshot, nil, session: nil),
            message(.sessionStarted, .started(activity: "running", startedAtMs: 1_795_000_000_000, commandID: "c1")),
            message(.sessionStarted, .started(activity: "walking", startedAtMs: 1_795_000_000_000, commandID: nil)),
            message(.sessionPaused, .paused(auto: true, distanceM: 800.5, elapsedS: 240)),
            message(.sessionResumed, .resumed(auto: false, distanceM: 800.5, elapsedS: 260)),
            message(.sessionEnded, .ended(ended)),
            message(.sessionEnded, .ended(bare)),
            message(.split, .split(index: 1, distanceM: 1000, durationS: 298.4, avgHeartRate: 148)),
            message(.split, .split(index: 2, distanceM: 1000, durationS: 301, avgHeartRate: nil)),
            message(
                .commandReply,
                .reply(commandID: "c1", ok: true, reason: nil, message: "started", state: .active)
            ),
            message(
                .commandReply,
                .reply(commandID: "c2", ok: false, reason: "not_active", message: "nothing to pause", state: .idle)
            ),
            message(.strapBattery, .notice(detail: "strap battery 20%", batteryPercent: 20)),
            message(.gpsLost, .notice(detail: "no fix for 10 s", batteryPercent: nil)),
            message(.raceStarted, .raceStarted(run: "r1", startOffsetMs: -35, clock: "gps")),
        ]
    }

    static var all: [any DocumentedBody] {
        var bodies: [any DocumentedBody] = [
            APIError("unknown_wearable", "no wearable named \"x\" is configured"),
            RelayRefusal(code: "WB302", message: "the race has started"),
            Health(openStreams: 2),
            Paired(),
            WearableList(
                wearables: [
                    WearableSummary(
                        name: "pi",
                        helloName: "pi-01",
                        link: link(full: true),
                        snapshot: snapshot(full: true)
                    ),
                    WearableSummary(name: "spare", helloName: nil, link: link(full: false), snapshot: nil),
                ],
                serverTimeMs: 1_795_000_000_000
            ),
            Live(
                name: "pi",
                helloName: "pi-01",
                epoch: "e1",
                link: link(full: true),
                snapshot: snapshot(full: true),
                session: .init(id: "s1", startedSeq: 3, ended: false),
                serverTimeMs: 1_795_000_000_000
            ),
            Live(
                name: "pi",
                helloName: nil,
                epoch: nil,
                link: link(full: false),
                snapshot: nil,
                session: nil,
                serverTimeMs: 1_795_000_000_000
            ),
            CommandStateBody(id: "abcdefgh", state: .pending),
            CommandStateBody(id: "abcdefgh", state: .ack, message: "started", session: "s1"),
            CommandStateBody(id: "abcdefgh", state: .fail, reason: "link_stale", message: "the link is stale"),
            CommandStateBody(id: "abcdefgh", state: .notAnswered, reason: "not_answered", message: "no answer"),
            SessionList(sessions: [
                session(
                    figures: .init(
                        distanceM: 5012.3,
                        elapsedS: 1800.5,
                        movingS: 1750,
                        avgHeartRate: 150,
                        maxHeartRate: 178,
                        splits: 5,
                        energyKcal: 405.2,
                        elevationGainM: 38.4,
                        elevationLossM: 37.9,
                        steps: 6_412
                    ),
                    known: true
                ),
                session(
                    figures: .init(
                        distanceM: 0,
                        elapsedS: 12,
                        movingS: 0,
                        avgHeartRate: nil,
                        maxHeartRate: nil,
                        splits: 0
                    ),
                    known: false
                ),
                session(figures: nil, known: true),
            ]),
            RaceState(race: race(full: true), relay: .init(runner: "alice"), serverTimeMs: 1_795_000_000_000),
            RaceState(race: nil, relay: nil, serverTimeMs: 1_795_000_000_000),
            RaceEvent(race: race(full: false), serverTimeMs: 1_795_000_000_000),
            RaceEvent(race: nil, serverTimeMs: 1_795_000_000_000),
            RunList(runs: [run(full: true), run(full: false)], runner: "alice"),
            RaceHistoryList(races: [
                RaceHistoryList.Race(
                    run: "0a7e5c1d-3c2b-4a19-8f00-1b2c3d4e5f60",
                    state: .complete,
                    startAtMs: 1_795_000_030_000,
                    winner: "alice",
                    mine: .init(name: "alice", distanceM: 1002.5, elapsedS: 301.2, routePoints: 120),
                    partner: .init(name: "bob", distanceM: 990, elapsedS: 301, routePoints: 98),
                    leadChanges: 2
                ),
                RaceHistoryList.Race(
                    run: "0a7e5c1d-3c2b-4a19-8f00-1b2c3d4e5f61",
                    state: .abandoned,
                    startAtMs: 1_795_000_030_000,
                    mine: .init(name: "alice"),
                    partner: .init(name: "bob")
                ),
            ]),
            CourseList(courses: [course]),
            CourseList(courses: []),
            course,
            CourseSent(course: "Prater loop", commands: ["c-1:0", "c-1:1"]),
            CourseRemoved(
                course: "Prater loop",
                removedFromPhone: true,
                command: "f3c9a1e2-6d1b-4f35-9a57-0c1d2e3f4a5b"
            ),
            Invited(run: "0a7e5c1d-3c2b-4a19-8f00-1b2c3d4e5f60"),
            Accepted(run: "0a7e5c1d-3c2b-4a19-8f00-1b2c3d4e5f60", startAtMs: 1_795_000_030_000),
            Hello(wearable: "pi", epoch: "e1", resumedAfter: 40, session: "s1", serverTimeMs: 1_795_000_000_000),
            Hello(wearable: "pi", epoch: "e1", resumedAfter: nil, session: nil, serverTimeMs: 1_795_000_000_000),
            LinkEvent(link: link(full: true), snapshotAgeS: 0.7, strapBatteryPercent: 80, strapBatteryAgeS: 31),
            LinkEvent(link: link(full: false), snapshotAgeS: nil, strapBatteryPercent: nil, strapBatteryAgeS: nil),
            TrackBody(
                session: "s1",
                after: 0,
                through: 20,
                points: [[0, 0, 0, 0], [3.1, -1.2, 1, 0]],
                beats: [[0.5, 120]],
                contact: "contact",
                paused: false
            ),
            TrackBody(session: "s1", after: 20, through: 21, points: [], beats: [], contact: nil, paused: true),
            TrackBody(
                session: "s1",
                after: 0,
                through: 3,
                points: [[0, 0, 0, 0]],
                beats: [],
                contact: nil,
                paused: false,
                course: .init(name: "river loop", lengthM: 5012.3, points: [[-3.2, 1.1], [120.4, 80.2]])
            ),
            Stamped(snapshot(full: true), serverTimeMs: 1_795_000_000_000),
            Stamped(snapshot(full: false), serverTimeMs: 1_795_000_000_000),
        ]
        bodies += messages.map { Stamped($0, serverTimeMs: 1_795_000_000_000) }
        bodies += messages.map { $0 as any DocumentedBody }
        bodies += [link(full: true), snapshot(full: true), race(full: true), run(full: true)]
        return bodies
    }
}
