import ArgumentParser
import Course
import Energy
import Foundation
import PhoneLinkContract
import PhoneServer
import ProcessClock
import SessionCore
import TrackCore

/// `wearbridge-phone start|pause|resume|end`: queues the command for the running server (durable:
/// it survives a restart of the server), waits for the wearable's answer, prints ACK or FAIL.
enum PhoneSessionCommand {
    struct Options: ParsableArguments {
        @OptionGroup var options: PhoneConfigOptions
        @Option(help: "The wearable's name (needed when more than one is configured).") var wearable: String?
        @Option(help: "How long to wait for the answer (s); default: the configured deadline.") var timeout: Double?
        @Option(help: "The command's id (a UUID; a retry with the same id is answered, never applied twice).")
        var id: String?
    }

    struct Start: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "start", abstract: "Start a session.")
        @OptionGroup var common: Options
        @Option(help: "running, walking or cycling (default: the wearable's).") var activity: String?
        @Option(name: .customLong("body-mass"), help: "Your body mass (kg), for the energy (default: the wearable's).")
        var bodyMass: Double?
        @Option(help: "The load you carry, a ruck or a vest (kg; default: the wearable's).") var load: Double?
        @Option(help: "A course the wearable keeps, to follow (see `wearbridge-phone course`).") var course: String?
        func run() async throws {
            var chosen: Activity?
            if let activity {
                guard let known = Activity(rawValue: activity) else {
                    Output.error("wearbridge-phone: \(Activity.refusal(forUnknown: activity))")
                    throw ExitCode(64)
                }
                chosen = known
            }
            let carriage: CarriageOverride
            switch CarriageOverride.checked(bodyMass: bodyMass, load: load) {
            case .success(let checked): carriage = checked
            case .failure(let error):
                Output.error("wearbridge-phone: \(error.message)")
                throw ExitCode(64)
            }
            var body = Wearbridge_Link_V1_Command()
            if let fields = carriage.commandBody { try body.merge(serializedBytes: fields) }
            if let course {
                guard CourseName.clean(course) == course else {
                    Output.error(
                        "wearbridge-phone: a course's name is one line of at most \(CourseName.maximumLength) characters"
                    )
                    throw ExitCode(64)
                }
                body.course = course
            }
            let bytes: [UInt8] = try body.serializedBytes()
            try await send(.start, activity: chosen, body: bytes.isEmpty ? nil : bytes, common)
        }
    }

    struct Pause: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "pause", abstract: "Pause the session.")
        @OptionGroup var common: Options
        func run() async throws { try await send(.pause, activity: nil, common) }
    }

    struct Resume: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "resume", abstract: "Resume the session.")
        @OptionGroup var common: Options
        func run() async throws { try await send(.resume, activity: nil, common) }
    }

    struct End: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "end", abstract: "End the session.")
        @OptionGroup var common: Options
        func run() async throws { try await send(.end, activity: nil, common) }
    }

    /// The wearable named, or the only one configured; else why not, and exit 64.
    static func chosenWearable(_ name: String?, _ config: PhoneConfig) throws -> String {
        if let name {
            guard config.wearables.contains(where: { $0.name == name }) else {
                Output.error("wearbridge-phone: no wearable named \(name) is configured")
                throw ExitCode(64)
            }
            return name
        }
        guard config.wearables.count == 1 else {
            Output.error("wearbridge-phone: name the wearable with --wearable (\(config.wearables.count) configured)")
            throw ExitCode(64)
        }
        return config.wearables[0].name
    }

    static func send(
        _ kind: SessionCommand,
        activity: Activity?,
        body: [UInt8]? = nil,
        _ common: Options
    ) async throws {
        let config = try common.options.load()
        let wearable = try chosenWearable(common.wearable, config)
        let inbox = try common.options.inbox(readOnly: false)
        let now = WallClock.system.now()
        let id = common.id ?? UUID().uuidString.lowercased()
        let deadline = now + (common.timeout ?? config.commandDeadline)
        if try inbox.commands.standing(id) == nil {
            try await inbox.commands.queue(
                QueuedCommand(
                    id: id,
                    wearable: wearable,
                    kind: kind,
                    activity: activity,
                    issuedAt: now,
                    validFor: config.commandValidFor,
                    deadline: deadline,
                    body: body
                )
            )
        }
        if let answer = try await answer(to: id, in: inbox, until: deadline + 1) {
            switch answer.outcome {
            case .ack:
                Output.line(
                    "ACK \(kind.rawValue) id=\(id)\(answer.session.map { " session=\($0)" } ?? ""): \(answer.message)"
                )
                return
            case .fail(let refusal):
                Output.line("FAIL \(refusal.rawValue) \(kind.rawValue) id=\(id): \(answer.message)")
                throw ExitCode(1)
            case .notAnswered:
                Output.line(
                    "NOT ANSWERED \(kind.rawValue) id=\(id): the wearable did not answer before the deadline"
                )
                throw ExitCode(2)
            }
        }
        Output.line("NOT ANSWERED \(kind.rawValue) id=\(id): no answer (is `wearbridge-phone run` running?)")
        throw ExitCode(2)
    }

    /// The wearable's answer to command `id` once the phone holds it (read every 0.1 s); nil when
    /// there is none by `deadline` (wall clock).
    static func answer(to id: String, in inbox: Inbox, until deadline: Double) async throws -> CommandAnswer? {
        while true {
            if let (_, answer) = try inbox.commands.standing(id), let answer { return answer }
            if WallClock.system.now() >= deadline { return nil }
            try await Task.sleep(for: .milliseconds(100))
        }
    }
}
