/// How much larger or smaller a receiver's real noise is than its error fields say, learnt from
/// the filter's innovations (covariance matching).
///
/// An innovation ν has variance P⁻ + R, so (ν² − P⁻) / R_reported estimates the square of the
/// factor. Averaged over `window` seconds of fixes, it lets a receiver that reports 287 m while
/// scattering 3 m be followed, and one that reports 20 m while wandering 80 m be distrusted.
public struct NoiseScale: Sendable {
    public private(set) var squared = 1.0
    private let inverseWindow: Double
    private let lower: Double
    private let upper: Double
    /// One sample can move the estimate by at most this much of its own size (robust to a burst).
    private let clip: Double

    init(window: Double, range: ClosedRange<Double>, clip: Double) {
        inverseWindow = 1 / window
        lower = range.lowerBound * range.lowerBound
        upper = range.upperBound * range.upperBound
        self.clip = clip
    }

    /// The factor to multiply a reported 1-sigma error by.
    public var factor: Double { squared.squareRoot() }

    /// One measurement's innovation on both axes: residuals against the prediction, `predicted`
    /// the filter's own variances there, `reported` the variances the receiver's fields gave
    /// (before scaling), `used` those the filter used (after scaling); `dt` the seconds since the
    /// last sample.
    mutating func observe(_ innovation: MotionFilter.Innovation, reported: LocalPoint, used: LocalPoint, dt: Double) {
        guard reported.east > 0, reported.north > 0, dt > 0 else { return }
        let east = min(innovation.east * innovation.east, clip * (innovation.eastVariance + used.east))
        let north = min(innovation.north * innovation.north, clip * (innovation.northVariance + used.north))
        // Negative samples are kept: clipping them would bias the estimate up while P⁻ is large.
        let sample =
            0.5
            * ((east - innovation.eastVariance) / reported.east + (north - innovation.northVariance) / reported.north)
        guard sample.isFinite else { return }
        let alpha = min(1, dt * inverseWindow)
        squared = min(max(squared + alpha * (sample - squared), lower), upper)
    }
}
