import Course
import StrideCalibration
import TrackCore

/// One row of the data log, typed until Store writes it. A session's rows share one sequence
/// (`seq`), so that its fixes, beats, commands and events are totally ordered.
public enum SessionRow: Sendable, Equatable {
    /// `factors`: an indoor footpod session's calibration as applied; `energy`: the body mass,
    /// load and walking model its energy is costed by (both kept for exports and recovery).
    case begin(
        sessionID: String,
        activity: Activity,
        startedAt: TimeAnchor,
        source: DistanceSource = .gps,
        factors: StrideFactors? = nil,
        energy: EnergySettings? = nil
    )
    case fix(sessionID: String, seq: Int, Fix, LoggedVerdict)
    /// An event of an open session; the announcement carries the same session id.
    case event(seq: Int, Announcement)
    /// A command and its reply; outside a session when it was refused there.
    case command(sessionID: String?, seq: Int, CommandReply, receivedAt: Double)
    /// A beat, with the GPS time it arrived at when fixes have taught it.
    case heartRate(sessionID: String, seq: Int, HeartRateSample, time: GPSTime?)
    /// A footpod's or treadmill's reading (dated on the session's clock).
    case speed(sessionID: String, seq: Int, SpeedSensorSample)
    /// A barometer's reading (dated on the session's clock).
    case pressure(sessionID: String, seq: Int, PressureSample)
    /// A stretch that taught the footpod's calibration (its history, kept across sessions): learnt
    /// in a session outdoors, or (`fixed`, no session needed) a distance the runner declared.
    case calibration(sessionID: String?, footpod: String, CalibrationStretch, fixed: Bool = false)
    /// The lifecycle moved.
    case state(sessionID: String, SessionLifecycle.State)
    case finish(sessionID: String, summary: SessionSummary, reason: EndReason, endedAt: TimeAnchor?)
    /// A part of a course on its way from the phone (kept until the course is whole).
    case coursePart(CoursePart)
    /// A course whole and kept under its name (replacing one of that name; its parts go).
    case courseKept(id: String, name: String, bytes: [UInt8])
    /// The course of this name is forgotten.
    case courseRemoved(name: String)

    /// What is given up first when storage is short: raw fixes, then beats, then notices; never a
    /// lifecycle row, a command or a critical event.
    public var retention: Retention {
        switch self {
        case .fix: .fix
        case .heartRate, .speed, .pressure: .beat
        case .calibration: .notice
        case .event(_, let announcement): announcement.event.isCritical ? .critical : .notice
        case .begin, .command, .state, .finish, .coursePart, .courseKept, .courseRemoved: .critical
        }
    }

    /// Rows that change a session's life, or answer a command: written at once, not with the next batch.
    public var isUrgent: Bool {
        switch self {
        case .begin, .state, .finish, .command, .coursePart, .courseKept, .courseRemoved: true
        case .fix, .event, .heartRate, .speed, .pressure, .calibration: false
        }
    }

    /// The command this row answers, if it is one.
    public var commandID: String? {
        if case .command(_, _, let reply, _) = self { return reply.commandID }
        return nil
    }

    public enum Retention: Int, Sendable, Comparable, CaseIterable {
        case fix
        case beat
        case notice
        case critical

        public static func < (lhs: Retention, rhs: Retention) -> Bool { lhs.rawValue < rhs.rawValue }
    }
}

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

/// The core's verdict on a fix, as logged.
public enum LoggedVerdict: Sendable, Equatable {
    case accepted(smoothed: GeoPoint)
    case rejected(RejectReason)
}

/// Why a session ended.
public enum EndReason: String, Sendable, Codable {
    case command
    /// No accepted fix for `abandonAfter`: closed at its last sample rather than left dangling.
    case abandoned
}
