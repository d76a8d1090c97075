/// A session's elevation: its filtered altitude, gain and loss, and grade, from GPS altitudes and
/// a barometer when there is one. Pure: readings and their times in, figures out.
///
/// Only a moving wearer climbs: while standing (or paused) the altitude may drift with a
/// receiver's error or the weather, and the climb counter is moved with it uncounted, so a
/// standstill gains 0 m. While the barometer's level is still being learnt from GPS, what GPS
/// moves the altitude by is not counted either: the barometer's shape is what counts.
public struct ElevationTrack: Sendable, Equatable {
    public struct Settings: Sendable, Equatable {
        public var filter: AltitudeFilter.Settings
        public var verticalError: VerticalError
        /// The climb counter's hysteresis on GPS alone and with a barometer, metres.
        public var gpsThreshold: Double
        public var barometerThreshold: Double
        /// The barometer's level counts as learnt below this sigma, metres.
        public var calibrated: Double
        /// This many readings in a row set aside start the filter's level (or offset) again.
        public var resetAfter: Int

        public init(
            filter: AltitudeFilter.Settings = .init(),
            verticalError: VerticalError = .init(),
            gpsThreshold: Double = 10,
            barometerThreshold: Double = 1.5,
            calibrated: Double = 6,
            resetAfter: Int = 10
        ) {
            self.filter = filter
            self.verticalError = verticalError
            self.gpsThreshold = gpsThreshold
            self.barometerThreshold = barometerThreshold
            self.calibrated = calibrated
            self.resetAfter = resetAfter
        }
    }

    public let settings: Settings
    private var filter: AltitudeFilter?
    private var counter: ClimbCounter
    private var window: GradeWindow
    private var lastGPSTime: Double?
    private var gpsSetAside = 0
    private var barometerSetAside = 0
    /// Readings set aside: altitudes off the filter's, pressures no barometer reads.
    public private(set) var rejectedAltitudes = 0
    public private(set) var rejectedPressures = 0

    public init(settings: Settings = .init()) {
        self.settings = settings
        counter = ClimbCounter(threshold: settings.gpsThreshold)
        window = GradeWindow()
    }

    public var source: ElevationSource {
        guard let filter else { return .none }
        return filter.hasBarometer ? .barometer : .gps
    }

    /// The filtered altitude above mean sea level, metres.
    public var altitude: Double? { filter.map { $0.h } }

    public var gain: Double { counter.gain }
    public var loss: Double { counter.loss }

    /// Rise over run of the last metres travelled.
    public var grade: Double? { window.grade }

    /// A GPS fix's altitude. `time` is seconds on the fixes' clock, `distance` the session's.
    public mutating func gps(
        altitude: Double,
        epv: Double?,
        eph: Double?,
        at time: Double,
        distance: Double,
        moving: Bool
    ) {
        guard altitude.isFinite, (-500...9000).contains(altitude), time.isFinite else {
            rejectedAltitudes += 1
            return
        }
        let sigma = settings.verticalError.sigma(epv: epv, eph: eph)
        let dt = lastGPSTime.map { min(max(time - $0, 0.05), 30) } ?? 1
        lastGPSTime = time
        guard filter != nil else {
            filter = AltitudeFilter(altitude: altitude, sigma: sigma, at: time, settings: settings.filter)
            note(moving: moving, distance: distance, start: altitude, predicted: altitude, calibrating: false)
            return
        }
        // The filter is updated where it lies (`filter!`), not copied out and back: once a fix.
        let start = filter!.h
        filter!.predict(to: time)
        let predicted = filter!.h
        let calibrating = filter!.hasBarometer && filter!.offsetSigma >= settings.calibrated
        if filter!.gps(altitude, sigma: sigma, at: time, dt: dt) == .setAside {
            rejectedAltitudes += 1
            gpsSetAside += 1
            if gpsSetAside >= settings.resetAfter {
                filter!.resetAltitude(altitude, sigma: sigma)
                gpsSetAside = 0
                // A level started again is no climb.
                note(moving: false, distance: distance, start: start, predicted: predicted, calibrating: true)
                return
            }
        } else {
            gpsSetAside = 0
        }
        note(moving: moving, distance: distance, start: start, predicted: predicted, calibrating: calibrating)
    }

    /// A barometer's pressure in kPa (as IIO's `in_pressure_input` reads).
    public mutating func pressure(_ kilopascal: Double, at time: Double, distance: Double, moving: Bool) {
        guard time.isFinite, BarometricAltitude.plausible(kilopascal) else {
            rejectedPressures += 1
            return
        }
        let reading = BarometricAltitude.altitude(pressure: kilopascal)
        guard filter != nil else { return }  // the level comes from GPS first
        let start = filter!.h
        filter!.predict(to: time)
        let predicted = filter!.h
        // The barometer's first reading only starts its offset.
        let calibrating = !filter!.hasBarometer
        if filter!.barometer(reading, at: time) == .setAside {
            rejectedPressures += 1
            barometerSetAside += 1
            if barometerSetAside >= settings.resetAfter {
                filter!.resetOffset(barometer: reading)
                barometerSetAside = 0
            }
        } else {
            barometerSetAside = 0
        }
        note(moving: moving, distance: distance, start: start, predicted: predicted, calibrating: calibrating)
    }

    /// Counts the altitude now, or moves the counter with it uncounted: all of its change since
    /// `start` while standing, the measurement's correction of the prediction while calibrating
    /// (the prediction is the wearer's climb, the correction the level learnt).
    private mutating func note(moving: Bool, distance: Double, start: Double, predicted: Double, calibrating: Bool) {
        guard let h = filter?.h else { return }
        counter.threshold = filter?.hasBarometer == true ? settings.barometerThreshold : settings.gpsThreshold
        guard moving else {
            counter.shift(by: h - start)
            return
        }
        if calibrating { counter.shift(by: h - predicted) }
        counter.add(h)
        window.add(distance: distance, altitude: h)
    }
}
