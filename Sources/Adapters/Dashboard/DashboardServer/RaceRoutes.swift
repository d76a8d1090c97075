import Course
import DashboardCore
import Foundation
import Hummingbird
import Logging
import NIOCore
import PhoneServer
import ProcessClock
import RelayClient
import RelayContract

/// The race panel's API: the race as this phone holds it (`GET /api/wearables/{name}/race`, no
/// relay needed), and the relay's desk for the runner: open invites and races, invite, accept. Each
/// relay call is one connection, as the CLI's `race` commands make; every rule (who may accept,
/// expiry, one race at a time) is the relay's, and its refusal is passed on with its words.
struct RaceRoutes: Sendable {
    let inbox: Inbox
    /// The phone's wall clock, shared with its other shells.
    let clock: WallClock
    let wearables: [String]
    let relay: RelayEndpoint?
    let logger: Logger
    /// A relay that does not answer within this is reported as such, never a hung page.
    var timeout: Duration = .seconds(15)

    static let activities = ["run", "walk", "ride"]

    func state(_ wearable: String) throws -> Response {
        guard wearables.contains(wearable) else { return DashboardRoutes.unknownWearable(wearable) }
        var board = RaceBoard()
        let now = clock.now()
        let race = try board.race(
            inbox: inbox,
            wearable: wearable,
            own: try inbox.link.snapshot(wearable: wearable),
            now: now
        )
        return try JSONText.response(
            RaceState(race: race, relay: relay.map { .init(runner: $0.user) }, serverTimeMs: Int64(now * 1000))
        )
    }

    /// Open invites and races not yet decided, from the relay.
    func runs() async -> Response {
        await desk { desk in
            _ = try await desk.sweep()
            let runs = try await desk.runs(openOnly: true)
            return try JSONText.response(RunList(runs: runs.map(Self.body), runner: relay?.user ?? ""))
        }
    }

    func invite(_ request: Request) async -> Response {
        let body: ByteBuffer
        do {
            body = try await request.body.collect(upTo: 1024)
        } catch {
            return JSONText.error(.contentTooLarge, "body_too_large", "an invite body is at most 1024 bytes")
        }
        let invitation: RaceDesk.Invitation
        switch Self.invitation(Data(buffer: body)) {
        case .success(let parsed): invitation = parsed
        case .failure(let problem): return JSONText.error(.badRequest, problem.code, problem.message)
        }
        // A race on a course the phone keeps: its length is the distance.
        var course: RelayCourse?
        if let object = try? JSONSerialization.jsonObject(with: Data(buffer: body)) as? [String: Any],
            let value = object["course"], !(value is NSNull)
        {
            guard let name = value as? String, CourseName.clean(name) == name, invitation.distanceMetres == nil else {
                return JSONText.error(
                    .badRequest,
                    "bad_course",
                    "\"course\" is the name of a course this phone keeps, without \"distance_m\""
                )
            }
            do {
                guard let kept = try inbox.courses.named(name) else { return CourseRoutes.unknown(name) }
                course = RelayCourse(kept.course)
            } catch {
                return JSONText.error(.internalServerError, "inbox", "\(error)")
            }
        }
        return await desk { [course] desk in
            let run: UUID
            if let course {
                run = try await desk.invite(invitation, on: course)
            } else {
                run = try await desk.invite(invitation)
            }
            logger.info(
                "invited a partner from the dashboard",
                metadata: ["run": "\(run)", "partner": "\(invitation.partner)"]
            )
            return try JSONText.response(Invited(run: run.uuidString.lowercased()), status: .created)
        }
    }

    func accept(_ run: String) async -> Response {
        guard let id = UUID(uuidString: run) else {
            return JSONText.error(.badRequest, "malformed_run", "a run id is a UUID")
        }
        return await desk { desk in
            let start = try await desk.accept(id)
            logger.info("accepted a race from the dashboard", metadata: ["run": "\(run)"])
            return try JSONText.response(
                Accepted(
                    run: id.uuidString.lowercased(),
                    startAtMs: Int64((start.timeIntervalSince1970 * 1000).rounded())
                )
            )
        }
    }

    /// Runs `body` on the runner's desk, turning the relay's answers into clear errors.
    private func desk(_ body: @escaping @Sendable (RaceDesk) async throws -> Response) async -> Response {
        guard let relay else {
            return JSONText.error(.notFound, "no_relay", "this phone has no [relay] in its config: races need one")
        }
        let logger = self.logger
        let timeout = self.timeout
        do {
            return try await withThrowingTaskGroup(of: Response?.self) { group in
                group.addTask {
                    try await RelayConnection.with(relay, logger: logger) { try await body(RaceDesk($0)) }
                }
                group.addTask {
                    try await Task.sleep(for: timeout)
                    return nil
                }
                let first = try await group.next() ?? nil
                group.cancelAll()
                return first
                    ?? JSONText.error(
                        .gatewayTimeout,
                        "relay_timeout",
                        "the relay at \(relay.place) did not answer within \(timeout)"
                    )
            }
        } catch let error as RelayError {
            logger.notice("the relay refused a dashboard request", metadata: ["error": "\(error)"])
            switch error {
            case .refused(let code, let message):
                return (try? JSONText.response(RelayRefusal(code: code.rawValue, message: message), status: .conflict))
                    ?? JSONText.error(.conflict, "relay_refused", message)
            case .notFound(let what): return JSONText.error(.notFound, "unknown_run", what)
            case .busy: return JSONText.error(.serviceUnavailable, "relay_busy", error.description)
            default: return JSONText.error(.badGateway, "relay_unreachable", error.description)
            }
        } catch {
            logger.warning("a dashboard relay request failed", metadata: ["error": "\(error)"])
            return JSONText.error(.badGateway, "relay_unreachable", "\(error)")
        }
    }

    struct Problem: Error {
        var code: String
        var message: String
    }

    /// `{"partner", "distance_m"?, "start_in_s"?, "activity"?}` as an invitation, or what is wrong.
    static func invitation(_ body: Data) -> Result<RaceDesk.Invitation, Problem> {
        guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any] else {
            return .failure(Problem(code: "malformed_invite", message: "an invite is a JSON object with \"partner\""))
        }
        guard let text = object["partner"] as? String, let partner = RunnerName(text) else {
            return .failure(Problem(code: "bad_partner", message: "\"partner\" is a runner's name"))
        }
        var invitation = RaceDesk.Invitation(partner: partner)
        if let value = object["distance_m"], !(value is NSNull) {
            guard let distance = (value as? NSNumber)?.doubleValue, distance > 0, distance <= 1_000_000 else {
                return .failure(
                    Problem(code: "bad_distance", message: "\"distance_m\" is a number of metres, 1 to 1000000")
                )
            }
            invitation.distanceMetres = distance
        }
        if let value = object["start_in_s"] {
            guard let lead = (value as? NSNumber)?.doubleValue, (10...3600).contains(lead) else {
                return .failure(Problem(code: "bad_start_in", message: "\"start_in_s\" is 10 to 3600 seconds"))
            }
            invitation.leadSeconds = lead
        }
        if let value = object["activity"] {
            guard let activity = value as? String, activities.contains(activity) else {
                return .failure(Problem(code: "bad_activity", message: "\"activity\" is one of \(activities)"))
            }
            invitation.activity = activity
        }
        return .success(invitation)
    }

    static func body(_ run: RelayRun) -> RelayRunBody {
        RelayRunBody(
            run: run.id.uuidString.lowercased(),
            inviter: run.inviter,
            invitee: run.invitee,
            partner: run.partner,
            activity: run.activity,
            distanceM: run.distanceMetres,
            state: run.state,
            expiresAtMs: Int64(run.expiresAt.timeIntervalSince1970 * 1000),
            startAtMs: run.startAt.map { Int64($0.timeIntervalSince1970 * 1000) }
        )
    }
}
