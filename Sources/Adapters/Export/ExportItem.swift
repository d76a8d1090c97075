import TrackCore

/// What an exporter writes, in time order, as a session's log is replayed: fixes with the core's
/// verdict and the distance so far, beats with their RR intervals, and the pauses that split a
/// track into moving stretches.
public enum ExportItem: Sendable, Equatable {
    case point(ExportPoint)
    case beat(ExportBeat)
    /// Indoors, a reading of the footpod or treadmill the distance comes from: a record with no position.
    case stride(ExportStride)
    /// The timer stopped (auto-pause or by hand) at this GPS time.
    case stop(at: Double)
    /// The timer started again at this GPS time.
    case start(at: Double)
    /// A split completed at this GPS time (the same object as the split row), with the session's
    /// energy so far (J; nil when it costs none) and its steps so far (nil when no pedometer counted).
    case split(Split, at: Double, energy: Double? = nil, steps: Int? = nil)
}

/// One fix, as logged and as the core judged it.
public struct ExportPoint: Sendable, Equatable {
    /// GPS time (s since 1970 UTC).
    public var time: Double
    public var raw: GeoPoint?
    /// Metres, as gpsd gave it (above sea level when it says so); nil when it did not.
    public var altitude: Double?
    /// The smoothed position the distance was measured on; nil for a rejected fix.
    public var smoothed: GeoPoint?
    /// Doppler speed as the receiver gave it (m/s).
    public var speed: Double?
    /// The receiver's horizontal error estimate (m).
    public var error: Double?
    /// "accepted" or the reject reason, as the data log names it.
    public var verdict: String
    /// The session's distance after this fix (m).
    public var distance: Double
    /// The last beat within `ExportReplay.heartRateHold` before this fix.
    public var heartRate: Int?
    /// The footpod's last cadence (steps per minute) within the same hold.
    public var cadence: Int? = nil

    public var isAccepted: Bool { smoothed != nil }
}

/// One indoor reading as the session took it: its instant on the session's clock, the session's
/// distance after it, its speed (calibrated) and cadence.
public struct ExportStride: Sendable, Equatable {
    public var time: Double
    public var distance: Double
    public var speed: Double?
    /// Steps per minute.
    public var cadence: Int?
    public var heartRate: Int?
}

/// One beat: its GPS time when fixes had taught the clock, its rate and RR intervals (s).
public struct ExportBeat: Sendable, Equatable {
    public var time: Double?
    public var bpm: Int
    public var rrIntervals: [Double]
}
