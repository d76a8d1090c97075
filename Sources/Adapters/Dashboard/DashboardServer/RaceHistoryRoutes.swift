import DashboardCore
import Foundation
import Hummingbird
import NIOCore
import PhoneServer
import RaceStore
import RelayContract

/// The races this phone ran that are over (`GET /api/races`), and each one's map of both routes
/// (`GET /api/races/{run}/map.svg`, `RaceMap`), from what the phone holds: no relay needed. Each
/// runner's figures are the relay's result (its final figures), or where their route ends; a race
/// on a course has the course, as this phone keeps it, drawn under the routes.
struct RaceHistoryRoutes: Sendable {
    let inbox: Inbox
    /// This runner's name at the relay; "me" with no relay configured.
    let runner: String

    private var store: RaceStore { RaceStore(inbox) }

    func list() throws -> Response {
        let races = try store.relayRaces().filter { !$0.state.isOpen && $0.session != nil }.reversed()
        return try JSONText.response(
            RaceHistoryList(
                races: try races.map { race in
                    let result = try result(race.run)
                    let map = try self.map(race, result.finals)
                    return RaceHistoryList.Race(
                        run: race.run,
                        state: race.state,
                        startAtMs: Int64((race.startAt * 1000).rounded()),
                        winner: result.winner,
                        mine: Self.body(map.mine),
                        partner: Self.body(map.partner),
                        leadChanges: map.mine.route != nil && map.partner.route != nil ? map.changes.count : nil
                    )
                }
            )
        )
    }

    func svg(_ run: String) throws -> Response {
        guard run.utf8.count <= 64, let race = try store.relayRace(run: run.lowercased()) else {
            return JSONText.error(.notFound, "unknown_run", "this phone ran no race \(run.prefix(64))")
        }
        return Response(
            status: .ok,
            headers: [.contentType: "image/svg+xml; charset=utf-8", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(string: try map(race, try result(race.run).finals).svg))
        )
    }

    private typealias Finals = [String: (distance: Double, elapsed: Double)]

    private func map(_ race: RaceStore.RelayRace, _ finals: Finals) throws -> RaceMap {
        let held = try store.routes(run: race.run)
        func side(_ name: String) -> RaceMap.Runner {
            RaceMap.Runner(
                name: name,
                route: held.first { $0.runner == name }?.route,
                distance: finals[name]?.distance,
                elapsed: finals[name]?.elapsed
            )
        }
        // A race on a course: the course as this phone keeps it (nothing drawn once it is removed).
        let course = try race.course.flatMap { try inbox.courses.named($0)?.course }
        return RaceMap(mine: side(runner), partner: side(race.partner), course: course)
    }

    /// The relay's result event for `run`, as the phone holds it: the winner and each runner's final figures.
    private func result(_ run: String) throws -> (winner: String?, finals: Finals) {
        guard let item = try store.partnerItems(run: run).last(where: { $0.source == .event && $0.kind == "result" })
        else { return (nil, [:]) }
        let body = RaceStore.details(item.body)
        var finals: Finals = [:]
        for entry in body["entries"] as? [[String: Any]] ?? [] {
            guard let name = entry["runner"] as? String, let distance = (entry["distance_m"] as? NSNumber)?.doubleValue,
                let elapsed = (entry["elapsed_s"] as? NSNumber)?.doubleValue
            else { continue }
            finals[name] = (distance, elapsed)
        }
        return (body["winner"] as? String, finals)
    }

    private static func body(_ runner: RaceMap.Runner) -> RaceHistoryList.Runner {
        RaceHistoryList.Runner(
            name: runner.name,
            distanceM: runner.distance,
            elapsedS: runner.elapsed,
            routePoints: runner.route?.count
        )
    }
}
