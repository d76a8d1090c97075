import Energy
import TrackCore

/// One lap as the lap-based formats (TCX, FIT) write it: a split, or the remainder after the
/// last one, with its extremes gathered from the points.
public struct ExportLap: Sendable, Equatable {
    public var index: Int
    /// GPS times (s since 1970 UTC).
    public var start: Double
    public var end: Double
    /// Timer time: pauses excluded (s).
    public var timer: Double
    public var distance: Double
    public var averageHeartRate: Double?
    public var maximumHeartRate: Int?
    public var maximumSpeed: Double?
    /// Energy spent over the lap (kcal); nil when the session costs none.
    public var kilocalories: Double?
    /// Steps taken over the lap; nil when no pedometer counted.
    public var steps: Int? = nil
    /// Ended by its distance (a split) or by the session's end.
    public var bySplit: Bool
}

/// Cuts the items into laps: a lap ends at each split, and the last at the session's end.
struct LapTracker {
    private var start: Double?
    private var maximumHeartRate = 0
    private var maximumSpeed = 0.0
    private var distanceDone = 0.0
    private var timerDone = 0.0
    /// The session's energy (J) and steps at the last split.
    private var energyDone = 0.0
    private var stepsDone = 0
    private(set) var count = 0

    /// Takes an item; the lap it completed, if any.
    mutating func take(_ item: ExportItem) -> ExportLap? {
        switch item {
        case .point(let point):
            start = start ?? point.time
            guard point.isAccepted else { return nil }
            if let bpm = point.heartRate { maximumHeartRate = max(maximumHeartRate, bpm) }
            if let speed = point.speed, speed.isFinite { maximumSpeed = max(maximumSpeed, speed) }
            return nil
        case .split(let split, let at, let energy, let steps):
            var lap = make(
                end: at,
                timer: split.duration,
                distance: split.distance,
                heart: split.averageHeartRate,
                energy: energy.map { $0 - energyDone },
                bySplit: true
            )
            lap.steps = steps.map { max(0, $0 - stepsDone) }
            if let energy { energyDone = energy }
            if let steps { stepsDone = steps }
            distanceDone += split.distance
            timerDone = split.endTimer
            return lap
        case .stride(let stride):
            start = start ?? stride.time
            if let bpm = stride.heartRate { maximumHeartRate = max(maximumHeartRate, bpm) }
            if let speed = stride.speed, speed.isFinite { maximumSpeed = max(maximumSpeed, speed) }
            return nil
        case .beat, .stop, .start:
            return nil
        }
    }

    /// The remainder after the last split (or the only lap), so the laps add up to the session.
    mutating func finish(_ totals: ExportTotals) -> ExportLap? {
        let remainder = totals.summary.distance - distanceDone
        guard remainder > 0.5 || count == 0 else { return nil }
        var lap = make(
            end: totals.lastTime,
            timer: max(0, totals.summary.moving - timerDone),
            distance: max(0, remainder),
            heart: nil,
            energy: totals.summary.energy.map { $0.joules - energyDone },
            bySplit: false
        )
        lap.steps = totals.summary.steps.map { max(0, $0 - stepsDone) }
        return lap
    }

    private mutating func make(
        end: Double,
        timer: Double,
        distance: Double,
        heart: Double?,
        energy: Double?,
        bySplit: Bool
    ) -> ExportLap {
        let lap = ExportLap(
            index: count,
            start: start ?? end,
            end: end,
            timer: timer,
            distance: distance,
            averageHeartRate: heart,
            maximumHeartRate: maximumHeartRate > 0 ? maximumHeartRate : nil,
            maximumSpeed: maximumSpeed > 0 ? maximumSpeed : nil,
            kilocalories: energy.map { max(0, $0) / EnergyModel.joulesPerKilocalorie },
            bySplit: bySplit
        )
        count += 1
        start = end
        maximumHeartRate = 0
        maximumSpeed = 0
        return lap
    }
}
