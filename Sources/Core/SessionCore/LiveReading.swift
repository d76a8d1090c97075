import TrackCore

/// The open session's figures at one instant, for sinks that speak or show them (cues): once a
/// tick while a session is open, and once more from the summary the session ended with, so a
/// closing cue speaks the recorded totals.
public struct LiveReading: Sendable, Equatable {
    public var sessionID: String
    public var state: SessionLifecycle.State
    /// Metres.
    public var distance: Double
    /// Seconds from the first usable fix, pauses included.
    public var elapsed: Double
    /// Timer time: pauses excluded (s).
    public var moving: Double
    /// s/km over moving time; nil before any distance.
    public var averagePace: Double?
    /// s/km now; nil while standing.
    public var currentPace: Double?
    /// The strap's latest beat while it streams; nil when it is silent, lost or absent.
    public var heartRate: Int?
    public var averageHeartRate: Double?
    /// The footpod's steps per minute while it streams; nil without one.
    public var cadence: Int? = nil
    /// Elevation gain so far (m), when the session has altitudes.
    public var climbed: Double? = nil
    /// Energy spent so far (kcal), when the session costs it.
    public var energy: Double? = nil
    /// Steps an IMU counted so far, when one did.
    public var steps: Int? = nil
    /// From the summary the session ended with.
    public var isFinal: Bool
    /// In a virtual race: the partner's name and the gap to them (m, positive when I lead), and in
    /// time (s): how long ago the leader was where the other is.
    public var racePartner: String?
    public var raceGap: Double?
    public var raceGapSeconds: Double?
    /// Monotonic instant it was read at.
    public var at: Double

    public init(
        sessionID: String,
        state: SessionLifecycle.State,
        distance: Double,
        elapsed: Double,
        moving: Double,
        averagePace: Double? = nil,
        currentPace: Double? = nil,
        heartRate: Int? = nil,
        averageHeartRate: Double? = nil,
        isFinal: Bool = false,
        at: Double
    ) {
        self.sessionID = sessionID
        self.state = state
        self.distance = distance
        self.elapsed = elapsed
        self.moving = moving
        self.averagePace = averagePace
        self.currentPace = currentPace
        self.heartRate = heartRate
        self.averageHeartRate = averageHeartRate
        self.isFinal = isFinal
        self.at = at
    }

    /// A session's figures now, from its summary: `speed` the smoothed speed (a pace only while
    /// moving), `heartRate` the strap's latest beat while it streams.
    public init(
        sessionID: String,
        state: SessionLifecycle.State,
        summary: SessionSummary,
        speed: Double,
        heartRate: Int?,
        at: Double
    ) {
        self.init(
            sessionID: sessionID,
            state: state,
            distance: summary.distance,
            elapsed: summary.elapsed,
            moving: summary.moving,
            averagePace: summary.averagePace,
            currentPace: speed > 0.3 ? 1000 / speed : nil,
            heartRate: heartRate,
            averageHeartRate: summary.heartRate?.average,
            at: at
        )
        climbed = summary.elevation?.gain
        energy = summary.energy?.kilocalories
        steps = summary.steps
    }

    /// The reading a session ended with: its recorded summary.
    public init(final summary: SessionSummary, sessionID: String, at: Double) {
        self.init(sessionID: sessionID, state: .idle, summary: summary, speed: 0, heartRate: nil, at: at)
        isFinal = true
    }
}
