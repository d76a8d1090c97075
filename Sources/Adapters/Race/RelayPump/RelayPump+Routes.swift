import Export
import Foundation
import PhoneRaceCore
import RaceStore
import RelayClient

/// The routes after a race: this runner's shared once its record is on the phone, the partner's
/// read until it comes (`RelayPumpCore` decides when).
extension RelayPump {
    /// Builds this runner's route of `race` from its session's backfilled record (the fixes as the
    /// session accepted them, with its distance) and shares it at the relay. The relay's refusal
    /// is kept with its reason, so it is not built again; a network failure leaves it for the next try.
    func shareRoute(_ race: RaceStore.RelayRace, _ feed: RelayFeed, now: Double) async throws {
        guard let id = UUID(uuidString: race.run), let session = race.session,
            let start = try inbox.sessions.start(session)
        else { return }
        var replay = ExportReplay(
            activity: start.activity,
            distanceSource: start.distanceSource,
            footpod: start.footpodFactors
        )
        var fixes: [RouteBuilder.Fix] = []
        try inbox.sessions.journal(session: session) { entry, time in
            replay.take(entry, time: time) { item in
                if case .point(let point) = item, let position = point.smoothed {
                    fixes.append(RouteBuilder.Fix(time: point.time, position: position, distance: point.distance))
                }
            }
        }
        let limit = try await feed.routePoints()
        guard let route = RouteBuilder.route(fixes, startAt: race.startAt, maximumPoints: limit) else {
            logger.notice("race: no route to share (no accepted fix)", metadata: ["run": "\(race.run)"])
            try await store.refuseRoute(
                run: race.run,
                runner: endpoint.user,
                reason: "no accepted fix to share",
                at: now
            )
            return
        }
        do {
            let points = try await feed.shareRoute(id, route)
            try await store.keepRoute(run: race.run, runner: endpoint.user, route, at: now)
            logger.notice(
                "race: shared this runner's route",
                metadata: ["run": "\(race.run)", "points": "\(points)", "fixes": "\(fixes.count)"]
            )
        } catch RelayError.refused(let code, let message) {
            logger.warning(
                "race: the relay refused this runner's route",
                metadata: ["run": "\(race.run)", "code": "\(code)", "reason": "\(message)"]
            )
            try await store.refuseRoute(
                run: race.run,
                runner: endpoint.user,
                reason: "\(code): \(message)",
                at: now
            )
        }
    }

    /// Reads the partner's route of `race` if the relay has it; one that is not a route the relay
    /// would keep is refused with its reason and not read again.
    func fetchRoute(_ race: RaceStore.RelayRace, _ feed: RelayFeed, now: Double) async throws {
        guard let id = UUID(uuidString: race.run) else { return }
        for (runner, route) in try await feed.routes(id) where runner == race.partner {
            switch route {
            case .success(let route):
                try await store.keepRoute(run: race.run, runner: runner, route, at: now)
                logger.notice(
                    "race: holds the partner's route",
                    metadata: ["run": "\(race.run)", "partner": "\(runner)", "points": "\(route.count)"]
                )
            case .failure(let problem):
                logger.warning(
                    "race: the partner's route is not one; it is not kept",
                    metadata: ["run": "\(race.run)", "partner": "\(runner)", "reason": "\(problem)"]
                )
                try await store.refuseRoute(run: race.run, runner: runner, reason: "\(problem)", at: now)
            }
        }
    }
}
