/// Where a session's start time came from: the Pi has no RTC, so GPS time is preferred.
public struct TimeAnchor: Sendable, Equatable, Codable {
    public enum Source: String, Sendable, Codable {
        case gps
        case system
    }

    public var source: Source
    /// Seconds since 1970 UTC on that source.
    public var seconds: Double

    public init(source: Source, seconds: Double) {
        self.source = source
        self.seconds = seconds
    }
}

/// A value in a logged event's detail.
public enum EventValue: Sendable, Equatable {
    case number(Double)
    case text(String)
}

/// One lifecycle, sensor or link event as the data log keeps it.
public struct LoggedEvent: Sendable, Equatable {
    public var kind: String
    /// GPS time the event refers to, when it has one.
    public var time: GPSTime?
    public var detail: [String: EventValue]

    public init(kind: String, time: GPSTime? = nil, detail: [String: EventValue] = [:]) {
        self.kind = kind
        self.time = time
        self.detail = detail
    }
}

/// The core's verdict on a fix, as logged.
public enum LoggedVerdict: Sendable, Equatable {
    case accepted(smoothed: GeoPoint)
    case rejected(RejectReason)

    public var name: String {
        switch self {
        case .accepted: "accepted"
        case .rejected(let reason): reason.rawValue
        }
    }
}

/// Why a session ended.
public enum EndReason: String, Sendable, Codable {
    case command
    /// No accepted fix for `abandonAfter`: closed at its last sample rather than left dangling.
    case abandoned
}

/// What the caller of `SessionController` must do, in order: write, reply, notify.
public enum SessionAction: Sendable, Equatable {
    case begin(sessionID: String, activity: Activity, startedAt: TimeAnchor)
    case recordFix(sessionID: String, seq: Int, fix: Fix, verdict: LoggedVerdict)
    case recordEvent(sessionID: String, seq: Int, event: LoggedEvent, receivedAt: Double?)
    case recordCommand(sessionID: String?, seq: Int, reply: CommandReply, receivedAt: Double)
    /// A beat, with the GPS time it arrived at when fixes have taught it.
    case recordHeartRate(sessionID: String, seq: Int, sample: HeartRateSample, time: GPSTime?)
    /// The lifecycle moved: persist it now, not with the next batch.
    case stateChanged(sessionID: String, state: SessionLifecycle.State)
    case finish(sessionID: String, summary: SessionSummary, reason: EndReason, endedAt: TimeAnchor?)
}
