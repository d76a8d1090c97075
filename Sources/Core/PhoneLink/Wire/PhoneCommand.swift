import Course
import Energy
import PhoneLinkContract
import RaceCore
import SessionCore
import TrackCore

/// A command from the phone, typed: the one place a command on the wire is read and checked
/// (id, kind, activity, validity), so the wearable's edges hand the engine only what it can apply.
public struct PhoneCommand: Sendable, Equatable {
    /// Ids are UUIDs; anything longer than this is not one and would bloat the ledger.
    public static let maxIDBytes = 128
    /// A command whose `valid_for_ms` is 0 is valid this long (s), as the contract says.
    public static let defaultValidity = 60.0

    public var id: String
    public var kind: SessionCommand
    public var activity: Activity?
    /// A start's body mass and load over the wearable's configured ones.
    public var carriage: CarriageOverride
    /// Seconds of validity left when it arrived (negative: expired on the way); nil: no limit.
    public var validityLeft: Double?
    /// A race's command: the race (arm, follow, cancel) or the partner's event.
    public var race: RaceInstruction?
    /// A course's part, for `course`.
    public var coursePart: CoursePart?
    /// For `start`: the kept course to follow.
    public var course: String?

    public init(
        id: String,
        kind: SessionCommand,
        activity: Activity? = nil,
        carriage: CarriageOverride = .none,
        validityLeft: Double? = nil,
        race: RaceInstruction? = nil,
        coursePart: CoursePart? = nil,
        course: String? = nil
    ) {
        self.race = race
        self.coursePart = coursePart
        self.course = course
        self.carriage = carriage
        self.id = id
        self.kind = kind
        self.activity = activity
        self.validityLeft = validityLeft
    }

    /// Reads a command off the wire, or says why it cannot be read (the phone gets FAIL INVALID).
    public init(wire command: Wearbridge_Link_V1_Command) throws(UnreadableCommand) {
        guard !command.commandID.isEmpty, command.commandID.utf8.count <= Self.maxIDBytes else {
            throw UnreadableCommand("a command needs an id (a UUID) of at most \(Self.maxIDBytes) bytes")
        }
        guard let kind = SessionCommand(wire: command.kind) else { throw UnreadableCommand("unknown command") }
        var activity: Activity?
        if !command.activity.isEmpty {
            guard let known = Activity(rawValue: command.activity) else {
                throw UnreadableCommand(Activity.refusal(forUnknown: command.activity))
            }
            activity = known
        }
        let carriage: CarriageOverride
        switch CarriageOverride.checked(
            bodyMass: command.bodyMassKg == 0 ? nil : command.bodyMassKg,
            load: command.loadKg == 0 ? nil : command.loadKg
        ) {
        case .success(let checked): carriage = checked
        case .failure(let error): throw UnreadableCommand(error.message)
        }
        let validFor = command.validForMs == 0 ? Self.defaultValidity : Double(command.validForMs) / 1000
        var course: String?
        if kind == .removeCourse, command.course.isEmpty {
            throw UnreadableCommand("a course's removal names the course")
        }
        if kind == .start || kind == .removeCourse, !command.course.isEmpty {
            guard CourseName.clean(command.course) == command.course else {
                throw UnreadableCommand("a course's name is one line of at most \(CourseName.maximumLength) characters")
            }
            course = command.course
        }
        var part: CoursePart?
        if kind == .course {
            let wire = command.coursePart
            guard !wire.courseID.isEmpty, !wire.bytes.isEmpty else {
                throw UnreadableCommand("a course's part needs its course id and bytes")
            }
            part = CoursePart(
                courseID: wire.courseID,
                index: Int(wire.index),
                count: Int(wire.count),
                totalBytes: Int(wire.totalBytes),
                bytes: [UInt8](wire.bytes)
            )
        }
        self.init(
            id: command.commandID,
            kind: kind,
            activity: activity,
            carriage: carriage,
            validityLeft: validFor - Double(command.ageMs) / 1000,
            race: try Self.race(command, kind),
            coursePart: part,
            course: course
        )
    }
}

extension PhoneCommand {
    /// A runner's name or a run id longer than this is not one.
    static let maxNameBytes = 128

    /// The race a race's command names, checked; nil for the session's commands.
    static func race(
        _ command: Wearbridge_Link_V1_Command,
        _ kind: SessionCommand
    ) throws(UnreadableCommand) -> RaceInstruction? {
        switch kind {
        case .start, .pause, .resume, .end, .course, .removeCourse:
            return nil
        case .calibrate:
            throw UnreadableCommand("calibrate is the wearable's own command, not the phone's")
        case .race, .cancelRace:
            let order = command.race
            guard !order.run.isEmpty, order.run.utf8.count <= maxNameBytes else {
                throw UnreadableCommand("a race's command needs its run id")
            }
            guard kind == .cancelRace || (!order.partner.isEmpty && order.partner.utf8.count <= maxNameBytes) else {
                throw UnreadableCommand("a race needs the partner's name")
            }
            guard kind == .cancelRace || order.startAtMs > 0 else {
                throw UnreadableCommand("a race needs its start instant")
            }
            guard order.distanceM.isFinite, order.distanceM >= 0 else {
                throw UnreadableCommand("a race's distance must be a finite number of metres")
            }
            guard order.course.isEmpty || CourseName.clean(order.course) == order.course else {
                throw UnreadableCommand("a course's name is one line of at most \(CourseName.maximumLength) characters")
            }
            return .order(
                RaceOrder(
                    run: order.run,
                    partner: order.partner,
                    startAt: Double(order.startAtMs) / 1000,
                    distance: order.distanceM > 0 ? order.distanceM : nil,
                    session: order.session.isEmpty ? nil : order.session,
                    course: order.course.isEmpty ? nil : order.course
                )
            )
        case .partnerEvent:
            let wire = command.partnerEvent
            guard !wire.run.isEmpty, wire.run.utf8.count <= maxNameBytes, wire.seq > 0 else {
                throw UnreadableCommand("a partner event needs its run and a positive seq")
            }
            guard wire.seconds.isFinite, wire.distanceM.isFinite else {
                throw UnreadableCommand("a partner event's figures must be finite")
            }
            let event: PartnerEvent
            switch wire.kind {
            case .paused: event = .paused
            case .resumed: event = .resumed
            case .split: event = .split(number: Int(wire.splitIndex), seconds: wire.seconds)
            case .finished: event = .finished(elapsedSeconds: wire.seconds, distanceMetres: wire.distanceM)
            case .abandoned: event = .abandoned
            case .unspecified, .UNRECOGNIZED: throw UnreadableCommand("unknown partner event")
            }
            return .partner(run: wire.run, sequence: wire.seq, event: event)
        }
    }
}

/// Why a command from the phone could not be read: answered FAIL INVALID at once, never applied.
public struct UnreadableCommand: Error, Equatable, CustomStringConvertible {
    public var reason: String
    public init(_ reason: String) { self.reason = reason }
    public var description: String { reason }
}

extension Wearbridge_Link_V1_Command {
    /// The phone's command as it goes out at `now` (seconds on the clock it was issued by): its age
    /// since issue and its validity travel with it, so the wearable needs no common clock.
    public init(
        id: String,
        kind: SessionCommand,
        activity: Activity?,
        carriage: CarriageOverride = .none,
        issuedAt: Double,
        validFor: Double,
        now: Double
    ) {
        self.init()
        commandID = id
        self.kind = kind.wire
        self.activity = activity?.rawValue ?? ""
        bodyMassKg = carriage.bodyMass ?? 0
        loadKg = carriage.load ?? 0
        issuedAtMs = Int64((issuedAt * 1000).rounded())
        ageMs = UInt64(max(0, (now - issuedAt) * 1000).rounded())
        validForMs = UInt64((validFor * 1000).rounded())
    }
}

extension CarriageOverride {
    /// A start's body mass and load as the wire's `Command` fields, for a queued command's body;
    /// nil when it says nothing.
    public var commandBody: [UInt8]? {
        guard !isEmpty else { return nil }
        var fields = Wearbridge_Link_V1_Command()
        fields.bodyMassKg = bodyMass ?? 0
        fields.loadKg = load ?? 0
        return try? fields.serializedBytes()
    }
}
