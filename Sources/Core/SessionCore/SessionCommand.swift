/// What the wearer (or the phone, later) asks of the session.
public enum SessionCommand: String, CaseIterable, Sendable, Codable {
    case start
    case pause
    case resume
    case end
    /// A virtual race: arm its countdown (the session starts at the agreed instant).
    case race
    /// The race was cancelled before its start: disarm.
    case cancelRace = "cancel_race"
    /// Something the partner did: applied once per id, like any command, but not to the session.
    case partnerEvent = "partner_event"
    /// A fixed-distance calibration of the footpod: mark its count now, or (with the distance run
    /// since) learn from it. Local only: the phone does not send it.
    case calibrate
    /// One part of a course for the wearable to keep: applied once per id, like any command.
    case course
    /// Forget a kept course (by name): applied once per id, like any command.
    case removeCourse = "remove_course"

    /// Commands the session's lifecycle answers; the others are the race's and the calibration's.
    public var isSessionCommand: Bool {
        switch self {
        case .start, .pause, .resume, .end: true
        case .race, .cancelRace, .partnerEvent, .calibrate, .course, .removeCourse: false
        }
    }
}

/// The answer to one command, kept by its id so that a retry gets it again.
public struct CommandReply: Sendable, Equatable, Codable {
    public var commandID: String
    public var command: SessionCommand
    public var accepted: Bool
    public var message: String
    public var sessionID: String?
    public var state: SessionLifecycle.State
    /// Why it was refused, as a code a phone can act on; nil when accepted (and in replies logged
    /// before codes existed).
    public var refusal: RefusalCode?

    public init(
        commandID: String,
        command: SessionCommand,
        accepted: Bool,
        message: String,
        sessionID: String?,
        state: SessionLifecycle.State,
        refusal: RefusalCode? = nil
    ) {
        self.commandID = commandID
        self.command = command
        self.accepted = accepted
        self.message = message
        self.sessionID = sessionID
        self.state = state
        self.refusal = refusal
    }
}

/// Why a command was refused: the phone link's FAIL reasons (the wire's names are its own).
public enum RefusalCode: String, Sendable, Codable, CaseIterable {
    case alreadyActive
    case notActive
    case alreadyPaused
    case notPaused
    /// It reached the wearable after its validity had passed: not applied.
    case expired
    case invalid
    case busy
    case unknown
    /// A race cannot be armed: no GPS fix (or time) yet.
    case notReady
}
