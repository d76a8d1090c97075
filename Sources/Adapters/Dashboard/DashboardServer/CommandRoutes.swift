import Course
import DashboardCore
import Energy
import Foundation
import Hummingbird
import Logging
import PhoneLinkContract
import PhoneServer
import ProcessClock
import SessionCore
import TrackCore

/// `POST /api/wearables/{name}/commands` and `GET /api/commands/{id}`: a page's command goes into
/// the same durable queue as the CLI's (`Inbox.queue`), by the id the page made, so a retry or a
/// double click is one command; refused at once, with the reason, while the link is not live.
struct CommandRoutes: Sendable {
    let inbox: Inbox
    /// The phone's wall clock, shared with its other shells.
    let clock: WallClock
    let wearables: Set<String>
    let limits: LinkLimits
    let validFor: Double
    let deadline: Double
    let logger: Logger

    func post(_ request: Request, wearable: String) async throws -> Response {
        guard wearables.contains(wearable) else { return DashboardRoutes.unknownWearable(wearable) }
        let body: ByteBuffer
        do {
            body = try await request.body.collect(upTo: 2048)
        } catch {
            return JSONText.error(.contentTooLarge, "body_too_large", "a command body is at most 2048 bytes")
        }
        guard
            let object = try? JSONSerialization.jsonObject(with: Data(buffer: body)) as? [String: Any],
            let idText = object["id"] as? String, let kindText = object["kind"] as? String
        else {
            return JSONText.error(
                .badRequest,
                "malformed_command",
                "a command is a JSON object with \"id\" (8-64 letters, digits, - or _) and \"kind\" (start, pause, resume, end)"
            )
        }
        let id: CommandID
        switch CommandID.parse(idText) {
        case .success(let parsed): id = parsed
        case .failure(let error): return JSONText.error(.badRequest, "malformed_id", error.description)
        }
        guard let kind = SessionCommand(rawValue: kindText), kind.isSessionCommand else {
            return JSONText.error(
                .badRequest,
                "unknown_kind",
                "kind is start, pause, resume or end, not \"\(kindText.prefix(20))\""
            )
        }
        var activity: Activity?
        if let text = object["activity"] as? String {
            guard kind == .start, let parsed = Activity(rawValue: text) else {
                return JSONText.error(
                    .badRequest,
                    "bad_activity",
                    "activity goes with start only, and is one of \(Activity.allCases.map(\.rawValue))"
                )
            }
            activity = parsed
        }
        let bodyMass = object["body_mass_kg"]
        let load = object["load_kg"]
        guard kind == .start || (bodyMass == nil && load == nil) else {
            return JSONText.error(.badRequest, "bad_carriage", "body_mass_kg and load_kg go with start only")
        }
        guard bodyMass == nil || bodyMass is NSNumber, load == nil || load is NSNumber else {
            return JSONText.error(.badRequest, "bad_carriage", "body_mass_kg and load_kg are numbers of kilograms")
        }
        let carriage: CarriageOverride
        switch CarriageOverride.checked(
            bodyMass: (bodyMass as? NSNumber)?.doubleValue,
            load: (load as? NSNumber)?.doubleValue
        ) {
        case .success(let checked): carriage = checked
        case .failure(let error): return JSONText.error(.badRequest, "bad_carriage", error.message)
        }
        var fields = Wearbridge_Link_V1_Command()
        if let carried = carriage.commandBody { try fields.merge(serializedBytes: carried) }
        if let course = object["course"] {
            guard kind == .start, let name = course as? String, CourseName.clean(name) == name else {
                return JSONText.error(
                    .badRequest,
                    "bad_course",
                    "course goes with start only, and is a course's name: one line of at most \(CourseName.maximumLength) characters"
                )
            }
            fields.course = name
        }
        let commandBody: [UInt8] = try fields.serializedBytes()
        if let existing = try inbox.commands.identity(id.description) {
            // The same click again: its standing; another command under this id: refused.
            guard existing.wearable == wearable, existing.kind == kind.rawValue else {
                return JSONText.error(.conflict, "id_in_use", "command id \(id) was already used for \(existing.kind)")
            }
            return try state(id.description)
        }
        let now = clock.now()
        let strip = limits.strip(try inbox.link.record(wearable: wearable), paused: false, now: now)
        if let reason = strip.commandsRefusedBecause {
            logger.notice(
                "refused a dashboard command: the link is not live",
                metadata: ["command": "\(id)", "kind": "\(kind.rawValue)", "link": "\(strip.state.rawValue)"]
            )
            return try JSONText.response(
                CommandStateBody(
                    id: id.description,
                    state: .fail,
                    reason: "link_\(strip.state.rawValue)",
                    message: reason
                ),
                status: .conflict
            )
        }
        do {
            try await inbox.commands.queue(
                QueuedCommand(
                    id: id.description,
                    wearable: wearable,
                    kind: kind,
                    activity: activity,
                    issuedAt: now,
                    validFor: validFor,
                    deadline: now + deadline,
                    body: commandBody.isEmpty ? nil : commandBody
                )
            )
        } catch {
            // Two copies of one click raced: the other one queued it.
            guard try inbox.commands.identity(id.description) != nil else { throw error }
        }
        logger.info("queued a dashboard command", metadata: ["command": "\(id)", "kind": "\(kind.rawValue)"])
        return try JSONText.response(CommandStateBody(id: id.description, state: .pending), status: .accepted)
    }

    /// A command's standing: pending, ack, fail (with the wearable's reason) or not_answered.
    func state(_ id: String) throws -> Response {
        guard case .success = CommandID.parse(standing: id) else {
            return JSONText.error(
                .badRequest,
                "malformed_id",
                "a command id has 8 to 64 letters, digits, - or _ (a course's part: and its index after a colon)"
            )
        }
        guard let (_, answer) = try inbox.commands.standing(id) else {
            return JSONText.error(.notFound, "unknown_command", "no command \(id)")
        }
        guard let answer else { return try JSONText.response(CommandStateBody(id: id, state: .pending)) }
        switch answer.outcome {
        case .ack:
            return try JSONText.response(
                CommandStateBody(id: id, state: .ack, message: answer.message, session: answer.session)
            )
        case .fail(let code):
            return try JSONText.response(
                CommandStateBody(id: id, state: .fail, reason: code.rawValue, message: answer.message)
            )
        case .notAnswered:
            return try JSONText.response(
                CommandStateBody(
                    id: id,
                    state: .notAnswered,
                    reason: "not_answered",
                    message: "the wearable did not answer by the deadline"
                )
            )
        }
    }
}
