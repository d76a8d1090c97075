import Foundation
import GRDB
import Harness
import PhoneServer
import RaceStore
import RelayContract
import Testing

/// The routes of races that are over, in a real SQLite file: kept once, refusals remembered, a
/// stored route read back checked.
@Suite struct RaceRouteStoreTests {
    let inbox: Inbox
    let store: RaceStore
    let run = "0a7e5c1d-3c2b-4a19-8f00-1b2c3d4e5f60"

    init() throws {
        inbox = try Inbox.open(directory: try temporaryDirectory("race-routes"), parts: [RaceStore.self])
        store = RaceStore(inbox)
    }

    static func route(_ metres: Double) throws -> RelayRoute {
        try RelayRoute(points: [
            .init(latitude: 52.5, longitude: 13.4, elapsed: 0, distance: 0),
            .init(latitude: 52.5 + metres / 111_320, longitude: 13.4, elapsed: metres / 3, distance: metres),
        ])
    }

    @Test func bothRoutesAreKeptOnceAndAReasonStandsInForARouteRefused() async throws {
        try await store.keepRoute(run: run, runner: "alice", try Self.route(300), at: 10)
        try await store.keepRoute(run: run, runner: "alice", try Self.route(500), at: 11)
        try await store.refuseRoute(run: run, runner: "bob", reason: "WB708: too fast", at: 12)
        let held = try store.routes(run: run)
        #expect(held.map(\.runner) == ["alice", "bob"])
        #expect(held[0].route == (try Self.route(300)), "the first copy stays")
        #expect(held[1].route == nil && held[1].refusal == "WB708: too fast")
        #expect(try store.routeRunners(run: run) == ["alice", "bob"], "a refusal settles a runner's route too")
        // A refusal of the partner's is replaced once their route is read.
        try await store.keepRoute(run: run, runner: "bob", try Self.route(280), at: 13)
        #expect(try store.routes(run: run)[1].route == (try Self.route(280)))
        #expect(try store.routes(run: "another").isEmpty)
    }

    @Test func aStoredRouteThatIsNoRouteIsAnErrorNamingItNotACrash() async throws {
        try await inbox.pool.write { db in
            try db.execute(
                sql: "INSERT INTO relay_route (run, runner, route, at) VALUES (?, 'bob', ?, 1)",
                arguments: [run, #"{"lat_e7":[1,1],"lon_e7":[1],"elapsed_ds":[0,1],"distance_dm":[0,1]}"#]
            )
        }
        #expect {
            try store.routes(run: run)
        } throws: { error in
            "\(error)".contains("relay_route of \(run) by bob") && "\(error)".contains("four arrays of one length")
        }
    }
}
