import Foundation
import GRDB
import Harness
import PhoneLinkContract
import PhoneLinkWire
import PhoneRaceCore
import PhoneServer
import RaceStore
import RelayContract
import Testing

/// The race's tables in the phone's inbox file, against real SQLite: the migrations the phone's
/// file has always had, a wearable message queued toward the relay in the inbox's own transaction,
/// and the typed columns refusing what is not theirs.
@Suite struct RaceStoreTests {
    let inbox: Inbox
    let store: RaceStore

    init() throws {
        inbox = try Inbox.open(directory: try temporaryDirectory("race-store"), parts: [RaceStore.self])
        store = RaceStore(inbox)
    }

    @Test func thePhonesFileHasTheMigrationsItAlwaysHadInTheirOrder() async throws {
        let applied = try await inbox.pool.read { db in
            try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY rowid")
        }
        #expect(
            applied == [
                "v1-inbox", "v2-backfill", "v3-relay", "v4-race-orders", "v5-outbox-head", "v6-backfill-replay",
                "v7-courses", "v8-race-routes", "v9-race-courses",
            ]
        )
    }

    func message(seq: Int, _ payload: Wearbridge_Link_V1_Payload) throws -> InboxMessage {
        try InboxMessage.fromPi(seq: seq, payload)
    }

    @Test func aRacesMessagesAreQueuedTowardTheRelayWithTheMessageItself() async throws {
        let run = "00000000-0000-0000-0000-000000000001"
        try await store.bindRace(run: run, wearable: "pi", partner: "bob", startAt: 1000, state: .accepted)
        let session = String(repeating: "ab", count: 8)
        let started = Wearbridge_Link_V1_Payload.with {
            $0.raceStarted = .with {
                $0.session = session
                $0.run = run
                $0.startOffsetMs = 120
                $0.clock = "gps"
            }
        }
        #expect(try await inbox.link.commit(message(seq: 1, started)))
        // A resend is not stored, and queues nothing again.
        #expect(try await !inbox.link.commit(message(seq: 1, started)))
        let paused = Wearbridge_Link_V1_Payload.with {
            $0.sessionPaused = .with {
                $0.session = session
                $0.distanceDm = 12_345
                $0.elapsedS = 300
            }
        }
        #expect(try await inbox.link.commit(message(seq: 2, paused)))
        let queued = try store.relayOutbox(run: run)
        #expect(queued.map(\.kind) == [.started, .paused])
        #expect(queued.map(\.messageClass) == [.critical, .critical])
        #expect(queued.map(\.seq) == [1, 2])
        #expect(queued[1].distance == 1234.5)
        #expect(try store.relayRaces().first?.session == session)
        // Sent: it leaves the queue only then.
        try await store.relayDone(run: run, seq: 1, at: 2000)
        try await store.relayDone(run: run, seq: 2, refusal: (RelayCode(rawValue: "WB604"), "too fast"), at: 2001)
        #expect(try store.relayOutbox(run: run).isEmpty)
        #expect(try store.relayRefusals().map(\.code) == ["WB604"])
    }

    @Test func aMessageOfNoRaceQueuesNothing() async throws {
        let paused = Wearbridge_Link_V1_Payload.with { $0.sessionPaused = .with { $0.session = "cd" } }
        #expect(try await inbox.link.commit(message(seq: 1, paused)))
        let rows = try await inbox.pool.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM relay_outbox") }
        #expect(rows == 0)
    }

    @Test func aStateThatIsNoRelayStateIsAnErrorNotACrash() async throws {
        try await store.bindRace(run: "r", wearable: "pi", partner: "bob", startAt: 1000, state: .accepted)
        try await inbox.pool.write { db in try db.execute(sql: "UPDATE relay_race SET state = 'winning'") }
        #expect(throws: InboxError.self) { try store.relayRaces() }
    }

    @Test func thePartnersNewsReachesTheWearableAsCommandsInTheRacesOrder() async throws {
        let run = "00000000-0000-0000-0000-000000000002"
        try await store.bindRace(run: run, wearable: "pi", partner: "bob", startAt: 1000, state: .accepted)
        try await inbox.pool.write { db in try db.execute(sql: "UPDATE relay_race SET session = 'abab'") }
        func item(
            _ source: PartnerNews.Source,
            _ key: Int64,
            _ kind: String,
            runner: String = "bob"
        )
            -> RaceStore.PartnerItem
        {
            RaceStore.PartnerItem(
                source: source,
                key: key,
                runner: runner,
                messageClass: .critical,
                kind: kind,
                distance: 100,
                elapsed: 60,
                paused: false,
                body: "{}",
                at: 1000
            )
        }
        let items = [item(.message, 3, "paused"), item(.message, 4, "resumed"), item(.event, 9, "finished")]
        try await store.commitPartner(
            run: run,
            items: items + [item(.message, 5, "paused", runner: "ann")],
            receivedAt: 1100
        )
        // Read again (a restart before the marks were seen): nothing twice.
        try await store.commitPartner(run: run, items: items, receivedAt: 1101)
        let commands = try await inbox.pool.read { db in
            try String.fetchAll(db, sql: "SELECT id FROM command WHERE kind = 'partner_event' ORDER BY rowid")
        }
        #expect(commands == ["partner-\(run)-1", "partner-\(run)-2", "partner-\(run)-3"])
        let race = try #require(try store.relayRaces().first)
        #expect(race.messageMark == 5 && race.eventMark == 9)
    }
}
