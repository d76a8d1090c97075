import StrideCalibration
import TrackCore

/// A footpod's calibration as the session core keeps it: every stretch learnt (in this session and
/// the ones before, on this wearable), the learning under way outdoors, and the factors an indoor
/// session applies. Pure: fixes and footpod readings in, stretches out.
public struct FootpodCalibration: Sendable {
    public private(set) var calibrator: StrideCalibrator
    /// The footpod the stretches are of, once it has connected (its address).
    public private(set) var footpod: String?
    /// The session's own frame, so that a stretch's straightness is judged in one plane whatever the
    /// track filter does with its own.
    private var frame: LocalFrame?
    private var last: (total: Double, speed: Double, receivedAt: Double)?
    /// The receive instant of the last fix taken, to notice the GPS falling silent.
    private var lastFixAt: Double?
    /// A footpod reading further than this from a fix (s), before or after it, says nothing about
    /// where the runner is.
    static let freshness = 2.5
    /// No fix for this long (s) while the footpod counts on: the stretch under way ends there, so
    /// that what it taught already carries the footpod through the gap (a tunnel).
    static let silence = 3.0

    public init(settings: CalibrationSettings = CalibrationSettings(), stretches: [CalibrationStretch] = []) {
        calibrator = StrideCalibrator(settings: settings, stretches: stretches)
    }

    /// The footpod connected: stretches from now on are its own.
    mutating func connected(_ address: String) {
        if footpod != address { last = nil }
        footpod = address
    }

    /// A footpod reading with its cumulative count and speed; the stretch it closed, if the GPS
    /// has fallen silent since the last fix.
    mutating func footpod(total: Double, speed: Double, receivedAt: Double) -> CalibrationStretch? {
        last = (total, speed, receivedAt)
        guard let lastFixAt, receivedAt - lastFixAt > Self.silence else { return nil }
        self.lastFixAt = nil
        return calibrator.finish()
    }

    /// A fix the session used: an epoch for the calibrator, with the footpod's count carried to the
    /// fix's receive instant at its speed. Returns the stretch it closed, if one was worth learning.
    /// The GPS and the footpod reach the core by different paths, so a fix may be handled just after
    /// a reading received after it: the count is then carried back to the fix, not the stretch ended.
    mutating func fix(
        at receivedAt: Double,
        position: GeoPoint,
        gpsDistance: Double,
        usable: Bool
    ) -> CalibrationStretch? {
        lastFixAt = receivedAt
        guard let last, abs(receivedAt - last.receivedAt) <= Self.freshness else {
            return calibrator.finish()
        }
        let frame = self.frame ?? LocalFrame(origin: position)
        self.frame = frame
        let here = frame.project(position)
        return calibrator.take(
            StrideCalibrator.Epoch(
                time: receivedAt,
                gpsUsable: usable,
                east: here.east,
                north: here.north,
                gpsDistance: gpsDistance,
                footpodDistance: last.total + last.speed * (receivedAt - last.receivedAt),
                footpodSpeed: last.speed
            )
        )
    }

    /// A fixed-distance calibration: `declared` metres run while the footpod counted `counted`,
    /// between two monotonic instants. Nil when it teaches nothing (too short, implausible).
    mutating func fixed(declared: Double, counted: Double, from start: Double, to end: Double) -> CalibrationStretch? {
        guard declared >= 50, counted > 0, end > start, abs(declared / counted - 1) <= calibrator.settings.implausible
        else { return nil }
        let speed = counted / (end - start)
        let stretch = CalibrationStretch(
            start: start,
            end: end,
            gpsMetres: declared,
            footpodMetres: counted,
            speed: speed,
            band: calibrator.settings.band(of: speed)
        )
        calibrator.add(stretch)
        return stretch
    }

    /// The session ended: the open stretch is closed, the next session starts its own frame.
    mutating func sessionEnded() -> CalibrationStretch? {
        frame = nil
        last = nil
        lastFixAt = nil
        return calibrator.finish()
    }

    /// The factors an indoor session applies: each pace band's own where the data show the stride
    /// changes with pace, else the overall factor; ones before the first stretch.
    public var factors: StrideFactors {
        let edges = calibrator.settings.bandEdges
        guard calibrator.overall != nil, !edges.isEmpty else {
            return StrideFactors(edges: [], factors: [calibrator.overall?.factor ?? 1])
        }
        let settings = calibrator.settings
        return StrideFactors(
            edges: edges,
            factors: (0...edges.count).map { calibrator.factor(forSpeed: settings.speed(inBand: $0))?.factor ?? 1 }
        )
    }
}
