import HeartRate
import SessionCore
import TrackCore

extension LinkMessage {
    /// The message a session event means for the phone, if any: lifecycle, splits and notices;
    /// `figures` gives the session's distance and elapsed time as they stand, read only for a pause
    /// or a resume.
    public init?(reporting announcement: Announcement, figures: () -> (distance: Double, elapsed: Double)) {
        let id = announcement.sessionID
        switch announcement.event {
        case .paused: self.init(paused: true, auto: false, id, figures)
        case .resumed: self.init(paused: false, auto: false, id, figures)
        case .track(.autoPaused): self.init(paused: true, auto: true, id, figures)
        case .track(.autoResumed): self.init(paused: false, auto: true, id, figures)
        case .track(.split(let split)):
            guard let id else { return nil }
            self = .split(sessionID: id, split)
        case .track(.gpsLost):
            self = .notice(sessionID: id, LinkNotice(.gpsLost, detail: "no usable fix"))
        case .track(.gpsRegained(_, let after)):
            self = .notice(sessionID: id, LinkNotice(.gpsRegained, detail: "after \(Int(after.rounded())) s"))
        case .strap(.lost(let reason)):
            self = .notice(sessionID: id, LinkNotice(.strapLost, detail: reason))
        case .strap(.regained(let after)):
            self = .notice(sessionID: id, LinkNotice(.strapRegained, detail: "after \(Int(after.rounded())) s"))
        case .strap(.battery(let level)):
            self = .notice(
                sessionID: id,
                LinkNotice(.strapBattery, detail: "battery \(level) %", batteryPercent: level)
            )
        case .storageRecovered(let after, _):
            self = .notice(
                sessionID: id,
                LinkNotice(.storageRecovered, detail: "storage failed for \(Int(after.rounded())) s")
            )
        case .race(.started(let run, _, _, let offset, let clock, _)):
            guard let id else { return nil }
            self = .raceStarted(sessionID: id, run: run, offsetMilliseconds: offset, clock: clock.rawValue)
        default:
            return nil
        }
    }

    /// A pause or a resume of an open session, with its figures at that moment.
    private init?(paused: Bool, auto: Bool, _ id: String?, _ figures: () -> (distance: Double, elapsed: Double)) {
        guard let id else { return nil }
        let (distance, elapsed) = figures()
        self =
            paused
            ? .paused(sessionID: id, auto: auto, distance: distance, elapsed: elapsed)
            : .resumed(sessionID: id, auto: auto, distance: distance, elapsed: elapsed)
    }

    /// The message a lifecycle row means: a session begun or finished (with its summary, and the
    /// course it followed where it stood at the end).
    public init?(reporting row: SessionRow, course: LinkSnapshot.Course? = nil) {
        switch row {
        case .begin(let id, let activity, let anchor, let source, _, _):
            self = .started(sessionID: id, activity: activity, startedAt: anchor, source: source)
        case .finish(let id, let summary, let reason, let endedAt):
            self = .ended(sessionID: id, reason: reason, summary: summary, endedAt: endedAt, course: course)
        default:
            return nil
        }
    }
}
