/// Learns a footpod's factor outdoors, pure: each epoch brings the track core's judgement of the
/// GPS (usable or not, not a fixed accuracy threshold), its position in local metres, its distance,
/// and the footpod's own cumulative distance and speed. Straight, steady stretches run with usable
/// GPS become `CalibrationStretch`es; their weighted ratios are the factor, per pace band where the
/// data show the stride changes with pace.
public struct StrideCalibrator: Sendable, Equatable {
    public struct Epoch: Sendable, Equatable {
        /// Monotonic seconds.
        public var time: Double
        public var gpsUsable: Bool
        /// Local metres (the track core's frame).
        public var east: Double
        public var north: Double
        /// The track core's cumulative distance (m).
        public var gpsDistance: Double
        /// The footpod's cumulative distance (m, as it reports it) and its speed (m/s).
        public var footpodDistance: Double
        public var footpodSpeed: Double

        public init(
            time: Double,
            gpsUsable: Bool,
            east: Double,
            north: Double,
            gpsDistance: Double,
            footpodDistance: Double,
            footpodSpeed: Double
        ) {
            self.time = time
            self.gpsUsable = gpsUsable
            self.east = east
            self.north = north
            self.gpsDistance = gpsDistance
            self.footpodDistance = footpodDistance
            self.footpodSpeed = footpodSpeed
        }
    }

    public let settings: CalibrationSettings
    /// Every stretch learnt from, in order (the history a user can inspect).
    public private(set) var stretches: [CalibrationStretch] = []
    private var first: Epoch?
    private var last: Epoch?
    private var speedSum = 0.0
    private var samples = 0

    public init(settings: CalibrationSettings = CalibrationSettings(), stretches: [CalibrationStretch] = []) {
        self.settings = settings
        self.stretches = stretches
    }

    /// Takes an epoch; returns the stretch it closed, if one was worth learning from.
    public mutating func take(_ epoch: Epoch) -> CalibrationStretch? {
        guard epoch.gpsUsable, epoch.footpodSpeed >= settings.slowest else {
            defer { reset(at: nil) }
            return close()
        }
        guard let start = first, let previous = last else {
            reset(at: epoch)
            return nil
        }
        let mean = speedSum / Double(samples)
        let path = epoch.gpsDistance - start.gpsDistance
        let chord =
            ((epoch.east - start.east) * (epoch.east - start.east)
            + (epoch.north - start.north) * (epoch.north - start.north)).squareRoot()
        let broken =
            epoch.footpodDistance < previous.footpodDistance || epoch.gpsDistance < previous.gpsDistance
            || abs(epoch.footpodSpeed - mean) > settings.steadiness * mean
            || chord < settings.straightness * path - settings.endNoise
        guard broken else {
            last = epoch
            speedSum += epoch.footpodSpeed
            samples += 1
            return nil
        }
        // The stretch ends at the previous epoch; the next one may begin here.
        defer { reset(at: epoch) }
        return close()
    }

    /// A stretch measured another way (a fixed distance the runner declared) joins the history.
    public mutating func add(_ stretch: CalibrationStretch) {
        stretches.append(stretch)
    }

    /// The session ended: the open stretch is closed.
    public mutating func finish() -> CalibrationStretch? {
        defer { reset(at: nil) }
        return close()
    }

    /// The factor over every stretch, nil before the first.
    public var overall: CalibrationFactor? { CalibrationFactor(of: stretches) }

    /// The factor for a speed: its band's own where that band has enough stretches and differs from
    /// the other bands' beyond both their errors and a size that matters, else the whole's.
    public func factor(forSpeed speed: Double) -> CalibrationFactor? {
        guard let overall else { return nil }
        let band = settings.band(of: speed)
        let own = stretches.filter { $0.band == band }
        guard own.count >= settings.bandStretches, let banded = CalibrationFactor(of: own) else { return overall }
        guard let rest = CalibrationFactor(of: stretches.filter { $0.band != band }) else { return overall }
        let difference = abs(banded.factor - rest.factor)
        let error = (banded.standardError * banded.standardError + rest.standardError * rest.standardError)
            .squareRoot()
        return difference > settings.bandSignificance * error && difference > settings.bandDifference
            ? banded : overall
    }

    private mutating func reset(at epoch: Epoch?) {
        first = epoch
        last = epoch
        speedSum = epoch?.footpodSpeed ?? 0
        samples = epoch == nil ? 0 : 1
    }

    private mutating func close() -> CalibrationStretch? {
        guard let start = first, let end = last, samples > 0 else { return nil }
        let stretch = CalibrationStretch(
            start: start.time,
            end: end.time,
            gpsMetres: end.gpsDistance - start.gpsDistance,
            footpodMetres: end.footpodDistance - start.footpodDistance,
            speed: speedSum / Double(samples),
            band: settings.band(of: speedSum / Double(samples))
        )
        guard stretch.gpsMetres >= settings.shortest, stretch.end - stretch.start >= settings.briefest,
            stretch.footpodMetres > 0, abs(stretch.ratio - 1) <= settings.implausible
        else { return nil }
        stretches.append(stretch)
        return stretch
    }

    /// A fixed-distance calibration ("run 400 m on the track, then say done"): the declared
    /// distance against the footpod's. Its error assumes the measured line was run to within
    /// 0.5 % (2 m in a 400 m lap).
    public static func fixedDistance(declared: Double, footpodMetres: Double) -> CalibrationFactor? {
        guard declared > 0, footpodMetres > 0 else { return nil }
        let factor = declared / footpodMetres
        return CalibrationFactor(factor: factor, standardError: factor * 0.005, stretches: 1, metres: declared)
    }
}
