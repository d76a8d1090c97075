/// A session's life: Idle -> Starting -> Active <-> Paused -> Ending -> Idle.
///
/// Only legal transitions happen; anything else is refused with a reason the wearer can read.
/// Starting waits for a confirmation (the phone's, once there is one); Ending for the summary.
public struct SessionLifecycle: Sendable, Equatable {
    public enum PauseCause: String, Sendable, Codable {
        /// `pause` command: only `resume` ends it.
        case command
        /// The core's auto-pause: moving again ends it.
        case auto
    }

    public enum State: Sendable, Equatable, Codable {
        case idle
        case starting
        case active
        case paused(PauseCause)
        case ending

        /// The name the store, the control socket and the CLI use.
        public var name: String {
            switch self {
            case .idle: "idle"
            case .starting: "starting"
            case .active: "active"
            case .paused(.command): "paused"
            case .paused(.auto): "auto_paused"
            case .ending: "ending"
            }
        }

        public init?(name: String) {
            switch name {
            case "idle": self = .idle
            case "starting": self = .starting
            case "active": self = .active
            case "paused": self = .paused(.command)
            case "auto_paused": self = .paused(.auto)
            case "ending": self = .ending
            default: return nil
            }
        }
    }

    /// What the caller must do after an accepted command.
    public enum Transition: Sendable, Equatable {
        case begin
        case suspend
        case resume
        case end
    }

    public private(set) var state: State

    public init(state: State = .idle) {
        self.state = state
    }

    /// Applies a command, or says why it cannot be applied now.
    public mutating func apply(_ command: SessionCommand) -> Result<Transition, Refusal> {
        switch (command, state) {
        case (.start, .idle):
            state = .starting
            return .success(.begin)
        case (.start, _):
            return .failure(Refusal(.alreadyActive, "a session is already \(state.name)"))
        case (.pause, .active), (.pause, .paused(.auto)):
            state = .paused(.command)
            return .success(.suspend)
        case (.pause, .paused(.command)):
            return .failure(Refusal(.alreadyPaused, "the session is already paused"))
        case (.resume, .paused(.command)):
            state = .active
            return .success(.resume)
        case (.resume, .paused(.auto)):
            return .failure(Refusal(.notPaused, "the session is auto-paused: it resumes when you move"))
        case (.resume, .active):
            return .failure(Refusal(.notPaused, "the session is not paused"))
        case (.end, .starting), (.end, .active), (.end, .paused):
            state = .ending
            return .success(.end)
        case (.pause, _), (.resume, _), (.end, _):
            return .failure(Refusal(.notActive, "no session is active"))
        case (.race, _), (.cancelRace, _), (.partnerEvent, _):
            return .failure(Refusal(.invalid, "\(command.rawValue) is a race's command, not the session's"))
        case (.calibrate, _):
            return .failure(Refusal(.invalid, "calibrate is the footpod's command, not the session's"))
        case (.course, _), (.removeCourse, _):
            return .failure(
                Refusal(.invalid, "\(command.rawValue) keeps or forgets a course, not the session's command")
            )
        }
    }

    /// Starting -> Active: the start is confirmed (locally while no phone is configured).
    public mutating func confirmStart() {
        if state == .starting { state = .active }
    }

    /// Ending -> Idle, once the summary is written; also closes an abandoned session.
    public mutating func finish() {
        state = .idle
    }

    /// Active -> Paused(auto) when the core pauses the timer; a command pause is left alone.
    public mutating func autoPaused() {
        if state == .active { state = .paused(.auto) }
    }

    public mutating func autoResumed() {
        if state == .paused(.auto) { state = .active }
    }

    public struct Refusal: Error, Sendable, Equatable {
        public var code: RefusalCode
        public var reason: String
        init(_ code: RefusalCode, _ reason: String) {
            self.code = code
            self.reason = reason
        }
    }
}
