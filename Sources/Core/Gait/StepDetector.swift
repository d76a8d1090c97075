/// Steps, cadence and stillness from an accelerometer, whatever way the device is turned: the
/// acceleration's magnitude less gravity, smoothed, its peaks above an adaptive threshold and far
/// enough apart for a human gait. A pure state machine: samples and their times in, steps out.
///
/// A jolt is not a walk: peaks count only once `confirmAfter` of them have come at a gait's
/// rhythm (each interval within `Settings.intervals`), and then all of them count; a pause longer
/// than the slowest interval starts the confirmation again.
public struct StepDetector: Sendable {
    public struct Settings: Sendable, Equatable {
        /// Peak-to-peak intervals a gait can have (s): 0.25 s is 240 steps a minute; an ankle's
        /// peaks are strides, twice that.
        public var intervals: ClosedRange<Double>
        /// Smoothing of the magnitude (s): a second-order low-pass of this time constant.
        public var smoothing: Double
        /// The smallest peak that can be a step (m/s² above gravity).
        public var minimumPeak: Double
        /// A peak must reach this fraction of the recent peaks' envelope.
        public var relativePeak: Double
        /// Peaks at a gait's rhythm before any counts.
        public var confirmAfter: Int

        public init(for placement: Placement) {
            switch placement {
            case .ankle:
                intervals = 0.5...2.6
                smoothing = 0.05
                minimumPeak = 2.0
                relativePeak = 0.35
            case .hip:
                intervals = 0.25...1.3
                smoothing = 0.04
                minimumPeak = 0.8
                relativePeak = 0.4
            case .wrist:
                intervals = 0.25...1.3
                smoothing = 0.06
                minimumPeak = 0.6
                relativePeak = 0.45
            }
            confirmAfter = 6
        }
    }

    public let placement: Placement
    public let settings: Settings
    /// Steps counted (confirmed) so far.
    public private(set) var steps = 0
    /// Steps per minute over the last intervals; nil until a gait is confirmed, and after a pause.
    public private(set) var cadence: Double?

    private var gravity: Double?
    private var stage1 = 0.0
    private var stage2 = 0.0
    private var previous: (time: Double, value: Double, rising: Bool)?
    private var lastSample: Double?
    private var envelope = 0.0
    private var lastPeak: Double?
    /// Peaks at a gait's rhythm not yet counted.
    private var pending = 0
    private var confirmed = false
    private var recentIntervals: [Double] = []
    /// The magnitude's spread over the last `stillWindow` seconds, for `isStill`.
    private var window: [(time: Double, magnitude: Double)] = []

    /// How long the magnitude must stay within `stillSpread` to call the wearer still (s).
    public static let stillWindow = 2.0
    public static let stillSpread = 0.35

    public init(placement: Placement, settings: Settings? = nil) {
        self.placement = placement
        self.settings = settings ?? Settings(for: placement)
    }

    /// Takes one sample; the steps it confirmed (0 for most).
    @discardableResult
    public mutating func add(_ sample: AccelerationSample) -> Int {
        let magnitude = sample.magnitude
        guard magnitude.isFinite, sample.time.isFinite else { return 0 }
        if let last = lastSample, sample.time <= last { return 0 }
        let dt = lastSample.map { min(0.2, sample.time - $0) } ?? 0
        lastSample = sample.time
        noteStillness(sample.time, magnitude)
        // Gravity: the magnitude's slow mean (a 2 s time constant).
        let g = gravity ?? magnitude
        gravity = g + (magnitude - g) * min(1, dt / 2)
        let detail = magnitude - (gravity ?? magnitude)
        let alpha = min(1, dt / settings.smoothing)
        stage1 += (detail - stage1) * alpha
        stage2 += (stage1 - stage2) * alpha
        let value = stage2
        var counted = 0
        if let previous {
            let rising = value > previous.value
            if previous.rising, !rising { counted = peak(at: previous.time, value: previous.value) }
            self.previous = (sample.time, value, rising)
        } else {
            previous = (sample.time, value, true)
        }
        envelope *= max(0, 1 - dt / 3)
        if let lastPeak, sample.time - lastPeak > settings.intervals.upperBound {
            // The gait stopped: the next steps must show their rhythm again.
            pending = 0
            confirmed = false
            cadence = nil
            recentIntervals.removeAll()
        }
        return counted
    }

    private mutating func peak(at time: Double, value: Double) -> Int {
        guard value >= settings.minimumPeak, value >= settings.relativePeak * envelope else { return 0 }
        if let lastPeak, time - lastPeak < settings.intervals.lowerBound {
            // Too soon for another step: the same impact's ringing.
            envelope = max(envelope, value)
            return 0
        }
        envelope = max(envelope, value)
        defer { lastPeak = time }
        guard let lastPeak else {
            pending = 1
            return 0
        }
        let interval = time - lastPeak
        guard settings.intervals.contains(interval) else {
            pending = 1
            return 0
        }
        recentIntervals.append(interval)
        if recentIntervals.count > 8 { recentIntervals.removeFirst() }
        // The mean of the last intervals: a wrist's alternate steps differ (the arm swings one way
        // with one foot), so any single one, the median too, can be the long or the short.
        let mean = recentIntervals.reduce(0, +) / Double(recentIntervals.count)
        cadence = 60 * Double(placement.stepsPerPeak) / mean
        guard confirmed else {
            pending += 1
            guard pending >= settings.confirmAfter else { return 0 }
            confirmed = true
            let counted = pending * placement.stepsPerPeak
            steps += counted
            pending = 0
            return counted
        }
        steps += placement.stepsPerPeak
        return placement.stepsPerPeak
    }

    private mutating func noteStillness(_ time: Double, _ magnitude: Double) {
        window.append((time, magnitude))
        let cutoff = time - Self.stillWindow
        if let first = window.firstIndex(where: { $0.time >= cutoff }), first > 0 { window.removeFirst(first) }
    }

    /// No step in the last interval a gait allows, and the magnitude within `stillSpread` for
    /// `stillWindow` seconds: the wearer is standing, evidence for the auto-pause.
    public var isStill: Bool {
        guard let first = window.first, let last = window.last, last.time - first.time >= Self.stillWindow * 0.9
        else { return false }
        if let lastPeak, last.time - lastPeak < settings.intervals.upperBound { return false }
        var low = Double.infinity
        var high = -Double.infinity
        for entry in window {
            low = min(low, entry.magnitude)
            high = max(high, entry.magnitude)
        }
        return high - low < Self.stillSpread
    }
}
