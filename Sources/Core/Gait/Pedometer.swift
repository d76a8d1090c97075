/// The step detector as a distance sensor: about once a second (of the samples' own time) a
/// reading of the steps so far, the cadence, the metres they cover at the step length the cadence
/// suggests (`StepLength.prior`), the speed that makes, and whether the wearer stands still. The
/// session takes these as it takes a footpod's count; its calibration against GPS makes the
/// metres the wearer's own. Pure: samples in, readings out.
public struct Pedometer: Sendable {
    public struct Reading: Sendable, Equatable {
        /// The last sample's time (s, the samples' clock).
        public var time: Double
        /// Steps since the pedometer began.
        public var steps: Int
        /// Steps a minute; nil before a gait is confirmed and after a pause.
        public var cadence: Double?
        /// The metres those steps cover by the prior step length (uncalibrated), since it began.
        public var metres: Double
        /// m/s at that step length; 0 with no cadence.
        public var speed: Double
        /// The step length the last steps were counted at (m).
        public var stepLength: Double?
        /// Standing still (`StepDetector.isStill`): evidence for the auto-pause.
        public var still: Bool
    }

    /// Seconds of samples between readings.
    public static let interval = 1.0

    public private(set) var detector: StepDetector
    public private(set) var metres = 0.0
    private var lastReading: Double?
    private var counted = 0
    private var lastLength: Double?

    public init(placement: Placement) {
        detector = StepDetector(placement: placement)
    }

    public var placement: Placement { detector.placement }

    /// Takes one sample; a reading when a second of samples has passed since the last one.
    public mutating func add(_ sample: AccelerationSample) -> Reading? {
        detector.add(sample)
        let new = detector.steps - counted
        if new > 0 {
            // Steps confirmed in a batch (the first of a gait) are counted at the cadence they confirmed.
            let length = StepLength.prior(cadence: detector.cadence ?? StepLength.slowest.cadence)
            metres += Double(new) * length
            lastLength = length
            counted = detector.steps
        }
        guard let last = lastReading else {
            lastReading = sample.time
            return nil
        }
        if sample.time < last {
            // The samples' clock went back (a device found again): start the interval afresh.
            lastReading = sample.time
            return nil
        }
        guard sample.time - last >= Self.interval else { return nil }
        lastReading = sample.time
        let cadence = detector.cadence
        let speed = cadence.map { $0 / 60 * StepLength.prior(cadence: $0) } ?? 0
        return Reading(
            time: sample.time,
            steps: detector.steps,
            cadence: cadence,
            metres: metres,
            speed: speed,
            stepLength: lastLength,
            still: detector.isStill
        )
    }
}
