import ArgumentParser
import Foundation
import Logging
import PhoneRaceCore
import PhoneServer
import ProcessClock
import RaceStore
import RelayClient
import RelayContract
import RelayPump
import TOMLConfig

/// `wearbridge-phone race ...`: invites, answers and results of virtual runs, through the relay in
/// the config's `[relay]`. Every rule (expiry, who may accept, one race at a time) is the relay's.
struct PhoneRaceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "race",
        abstract: "Race a partner elsewhere through the relay: invite, answer, follow, look back.",
        subcommands: [
            Invite.self, List.self, Accept.self, Decline.self, Cancel.self, Show.self, History.self, Rematch.self,
            PhoneRaceStatusCommand.self,
        ]
    )

    struct Common: ParsableArguments {
        @OptionGroup var options: PhoneConfigOptions
        @Flag(help: "JSON output.") var json = false

        /// Opens the relay named in the config and runs `body` on the runner's desk.
        func desk<Result: Sendable>(_ body: (RaceDesk) async throws -> Result) async throws -> Result {
            let logger = options.bootstrap()
            let config = try options.load()
            guard let relay = config.relay else {
                Output.error("wearbridge-phone: no [relay] in the config: a race needs one (docs/relay.md)")
                throw ExitCode(78)
            }
            let endpoint = RelayEndpoint.runner(relay)
            return try await relayCall {
                try await RelayConnection.with(endpoint, logger: logger) { try await body(RaceDesk($0)) }
            }
        }
    }

    struct InviteOptions: ParsableArguments {
        @Option(help: "The race's distance: 5km, 5000m, 3mi (none: the farther in the time wins).")
        var distance: String?
        @Option(name: .customLong("start-in"), help: "Start this long after acceptance: 90s, 2m (10 s to 1 h).")
        var startIn = "90s"
        @Option(help: "run, walk or ride.") var activity = "run"
        @Option(name: .customLong("expires-in"), help: "The invite expires after this (default the relay's, 5 m).")
        var expiresIn: String?
        @Option(name: .customLong("abandon-after"), help: "A silent runner is abandoned after this (default 10 m).")
        var abandonAfter: String?
        @Option(
            help:
                "A course this phone keeps (course add): both runners follow it, compared along it; its length is the distance."
        )
        var course: String?

        /// The course named by --course, in the relay's units; nil without one.
        func relayCourse(_ options: PhoneConfigOptions) throws -> RelayCourse? {
            guard let course else { return nil }
            guard distance == nil else {
                throw ValidationError("--course and --distance: a race on a course is the course's length")
            }
            guard let kept = try options.inbox().courses.named(course) else {
                Output.error("wearbridge-phone: no course named \"\(course)\" (see wearbridge-phone course list)")
                throw ExitCode(64)
            }
            return RelayCourse(kept.course)
        }

        func invitation(_ partner: String) throws -> RaceDesk.Invitation {
            guard let name = RunnerName(partner) else { throw ValidationError("\(partner) is not a runner's name") }
            var invitation = RaceDesk.Invitation(partner: name)
            invitation.activity = activity
            invitation.distanceMetres = try distance.map(Self.metres)
            invitation.leadSeconds = try Self.seconds(startIn, "--start-in")
            invitation.expiresInSeconds = try expiresIn.map { try Self.seconds($0, "--expires-in") }
            invitation.abandonAfterSeconds = try abandonAfter.map { try Self.seconds($0, "--abandon-after") }
            return invitation
        }

        static func seconds(_ text: String, _ option: String) throws -> Double {
            guard let value = TOMLFields.parseDuration(text) else {
                throw ValidationError("\(option) \(text): a duration is a number and s, m, h or d (90s, 5m)")
            }
            return value
        }

        static func metres(_ text: String) throws -> Double {
            let units: [(String, Double)] = [("km", 1000), ("mi", 1609.344), ("m", 1)]
            for (unit, scale) in units where text.hasSuffix(unit) {
                if let number = Double(text.dropLast(unit.count)), number > 0 { return number * scale }
            }
            if let number = Double(text), number > 0 { return number }
            throw ValidationError("--distance \(text): a distance is a number and km, m or mi (5km, 400m)")
        }
    }

    struct Invite: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Invite a partner; the invite expires unless accepted in time."
        )
        @OptionGroup var common: Common
        @OptionGroup var invite: InviteOptions
        @Argument(help: "The partner's runner name.") var partner: String

        func run() async throws {
            let invitation = try invite.invitation(partner)
            let course = try invite.relayCourse(common.options)
            let id = try await common.desk { desk in
                if let course { return try await desk.invite(invitation, on: course) }
                return try await desk.invite(invitation)
            }
            common.json
                ? Output.line(Output.json(["run": id.uuidString.lowercased()]))
                : Output.line(id.uuidString.lowercased())
        }
    }

    struct Rematch: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Invite the partner of an earlier run again.")
        @OptionGroup var common: Common
        @OptionGroup var invite: InviteOptions
        @Argument(help: "The earlier run's id (or its first characters).") var run: String

        func run() async throws {
            let id = try await common.desk { desk in
                let earlier = try await desk.details(try await desk.resolve(run)).run
                var invitation = try invite.invitation(earlier.partner)
                invitation.rematchOf = earlier.id
                // On the same course as before, unless another is named.
                let named = try invite.relayCourse(common.options)
                let course = named == nil ? try await desk.course(earlier.id) : named
                if let course {
                    return try await desk.invite(invitation, on: course)
                }
                if invite.distance == nil { invitation.distanceMetres = earlier.distanceMetres }
                return try await desk.invite(invitation)
            }
            common.json
                ? Output.line(Output.json(["run": id.uuidString.lowercased()]))
                : Output.line(id.uuidString.lowercased())
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Open invites and races under way.")
        @OptionGroup var common: Common

        func run() async throws {
            let runs = try await common.desk { desk in
                try await desk.sweep()
                return try await desk.runs(openOnly: true)
            }
            printRuns(runs, json: common.json, empty: "no open invites or races")
        }
    }

    struct History: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Every run, newest first, with results.")
        @OptionGroup var common: Common

        func run() async throws {
            let runs = try await common.desk { try await $0.runs(openOnly: false) }
            printRuns(runs, json: common.json, empty: "no runs yet")
        }
    }

    struct Accept: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Accept an invite: the relay fixes the start.")
        @OptionGroup var common: Common
        @Argument(help: "The run's id (or its first characters).") var run: String

        func run() async throws {
            let (id, start) = try await common.desk { desk in
                let id = try await desk.resolve(run)
                return (id, try await desk.accept(id))
            }
            if common.json {
                Output.line(Output.json(["run": id.uuidString.lowercased(), "start_at": RaceText.instant(start)]))
            } else {
                Output.line("accepted \(id.uuidString.lowercased()): the race starts at \(RaceText.instant(start))")
            }
        }
    }

    struct Decline: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Decline an invite.")
        @OptionGroup var common: Common
        @Argument(help: "The run's id (or its first characters).") var run: String

        func run() async throws {
            let id = try await common.desk { desk in
                let id = try await desk.resolve(run)
                try await desk.decline(id)
                return id
            }
            Output.line(
                common.json ? Output.json(["run": id.uuidString.lowercased(), "state": "declined"]) : "declined"
            )
        }
    }

    struct Cancel: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Cancel an invite or a race not yet decided.")
        @OptionGroup var common: Common
        @Option(help: "Why (the partner sees it).") var reason: String?
        @Argument(help: "The run's id (or its first characters).") var run: String

        func run() async throws {
            let id = try await common.desk { desk in
                let id = try await desk.resolve(run)
                try await desk.cancel(id, reason: reason)
                return id
            }
            Output.line(
                common.json ? Output.json(["run": id.uuidString.lowercased(), "state": "cancelled"]) : "cancelled"
            )
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "A run: its state, both runners' start offsets and figures, the result and its events."
        )
        @OptionGroup var common: Common
        @Argument(help: "The run's id (or its first characters).") var run: String

        func run() async throws {
            let (details, course) = try await common.desk { desk in
                try await desk.sweep()
                let id = try await desk.resolve(run)
                return (try await desk.details(id), try await desk.course(id))
            }
            // A course the relay holds but no wearable could follow is shown with the reason.
            let followed = course.map { relayCourse in
                Result { () throws(RelayCourseProblem) in try relayCourse.course() }
            }
            if common.json {
                Output.line(RaceText.json(details, course: followed))
            } else {
                Output.line(RaceText.line(details.run))
                switch followed {
                case .success(let course)?:
                    Output.line(
                        "  on the course \"\(course.name)\": \(String(format: "%.2f", course.length / 1000)) km, "
                            + "\(course.points.count) points, \(course.turns.count) turns"
                    )
                case .failure(let problem)?:
                    Output.line("  on a course no wearable can follow: \(problem)")
                case nil:
                    break
                }
                for entry in details.entries { Output.line("  " + RaceText.line(entry)) }
                for event in details.events {
                    Output.line(
                        "  #\(event.id) \(RaceText.instant(event.at)) \(event.kind.rawValue)"
                            + (event.runner.map { " \($0)" } ?? "") + " \(event.body)"
                    )
                }
            }
        }
    }
}

private func printRuns(_ runs: [RelayRun], json: Bool, empty: String) {
    if json {
        for run in runs { Output.line(RaceText.json(run)) }
    } else if runs.isEmpty {
        Output.line(empty)
    } else {
        for run in runs { Output.line(RaceText.line(run)) }
    }
}

/// `wearbridge-phone race status`: what this phone holds about its races, without the relay: the
/// partner's newest figures and their age, the partner's events, what waits to go to the relay and
/// what the relay refused.
struct PhoneRaceStatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "This phone's races as it holds them: the partner's newest figures, events, queue, refusals."
    )
    @OptionGroup var options: PhoneConfigOptions
    @Flag(help: "One JSON object per race.") var json = false

    func run() throws {
        let inbox = try options.inbox()
        let now = WallClock.system.now()
        let races = RaceStore(inbox)
        let refusals = try races.relayRefusals()
        let held = try races.relayRaces()
        if held.isEmpty, !json { Output.line("no races on this phone yet") }
        for race in held {
            let items = try races.partnerItems(run: race.run)
            let snapshot = items.first { $0.source == .message && $0.messageClass == .snapshot }
            let messages = items.filter { $0.source == .message && $0.messageClass != .snapshot }
            let events = items.filter { $0.source == .event }
            var object: [String: Any] = [
                "run": race.run, "partner": race.partner, "state": race.state.rawValue, "wearable": race.wearable,
                "session": race.session ?? NSNull(), "queued": try races.relayOutbox(run: race.run).count,
                "course": race.course ?? NSNull(),
                "message_mark": race.messageMark, "event_mark": race.eventMark,
                "partner_messages": messages.map { ["seq": $0.key, "kind": $0.kind] },
                "events": events.map { ["id": $0.key, "kind": $0.kind, "runner": $0.runner ?? ""] as [String: Any] },
                "refused": refusals.filter { $0.run == race.run }.map {
                    ["seq": $0.seq, "kind": $0.kind, "code": $0.code, "message": $0.message]
                },
            ]
            if let snapshot {
                object["partner_snapshot"] = [
                    "seq": snapshot.key, "distance_m": snapshot.distance ?? NSNull(),
                    "elapsed_s": snapshot.elapsed ?? NSNull(), "paused": snapshot.paused,
                    "course_m": snapshot.course ?? NSNull(),
                    "age_s": ((now - snapshot.at) * 10).rounded() / 10,
                ]
            }
            if json {
                Output.line(Output.json(object))
            } else {
                var line = "\(race.run) \(race.state) with \(race.partner)"
                if let course = race.course { line += " on \"\(course)\"" }
                if let snapshot, let distance = snapshot.distance {
                    line += String(format: "; partner at %.1f m", distance)
                    if let along = snapshot.course { line += String(format: " (%.1f m along the course)", along) }
                    if snapshot.paused { line += " (paused)" }
                    line += String(format: ", %.1f s ago", now - snapshot.at)
                }
                line += "; \(messages.count) partner events, \(events.count) relay events"
                line += ", \(object["queued"] ?? 0) queued, \(refusals.filter { $0.run == race.run }.count) refused"
                Output.line(line)
            }
        }
    }
}
