import SessionCore
import TrackCore

/// One row of `session`, as `sessions` and `show` print it.
public struct StoredSession: Sendable, Equatable, Codable {
    public var id: String
    public var state: String
    public var activity: String
    /// Seconds since 1970 UTC, on the source `startAnchor` names.
    public var startedAt: Double
    public var startAnchor: String
    public var endedAt: Double?
    public var endReason: String?
    public var distance: Double
    public var elapsed: Double
    public var moving: Double
    public var paused: Double
    public var fixesAccepted: Int
    public var fixesRejected: Int
    /// Extra figures as stored JSON (rejections by reason, auto-pauses, GPS losses...).
    public var summaryJSON: String?
    /// gps, or indoors footpod or treadmill: where `distance` came from.
    public var distanceSource = "gps"
    /// An indoor footpod session's calibration as applied.
    public var footpodFactors: StrideFactors? = nil
    /// The body mass, load and walking model its energy was costed by; nil: none.
    public var energy: EnergySettings? = nil

    /// Average pace over moving time, seconds per kilometre.
    public var averagePace: Double? { distance > 1 ? moving / distance * 1000 : nil }
}

/// A logged event, for `show`.
public struct StoredEvent: Sendable, Equatable {
    public var seq: Int
    public var kind: String
    public var time: Double?
    public var detailJSON: String
}

/// Everything `show` prints about one session.
public struct SessionDetail: Sendable {
    public var session: StoredSession
    public var splits: [Split]
    public var events: [StoredEvent]
    public var fixCount: Int
    public var beatCount: Int
}

/// One heart-rate row, as logged.
public struct StoredBeat: Sendable, Equatable {
    public var seq: Int
    /// Monotonic receive instant.
    public var received: Double?
    /// GPS time, when known.
    public var time: Double?
    public var bpm: Int
    public var contact: String?
    public var energyExpended: Int?
    /// RR intervals in 1/1024 s, as sent.
    public var rrIntervals: [UInt16]
    /// The notification's bytes as received.
    public var payload: [UInt8]
}

/// One logged input of a session in sequence order, with the GPS time it carries (a fix's own, a
/// beat's from the clock fixes taught; nil for a command).
public struct JournalItem: Sendable {
    public var seq: Int
    public var entry: SessionController.JournalEntry
    public var time: Double?
}
