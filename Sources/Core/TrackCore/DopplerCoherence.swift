/// Whether the receiver's Doppler points one way: the mean velocity vector against the mean speed
/// over a window of seconds.
///
/// A person walking at 1 m/s keeps a direction for many seconds (coherence near 1, lower only on a
/// tight turn); a still modem's 1 m/s of noise points anywhere, and its mean vector shrinks as the
/// window fills (coherence about 0.3 for a 5 s window at 1 Hz).
public struct DopplerCoherence: Sendable {
    private var meanVelocity = LocalPoint(east: 0, north: 0)
    private var meanSpeed = 0.0
    private var last: GPSTime?

    public init() {}

    /// `speed` is the length of `velocity`, which the caller already has.
    mutating func observe(_ velocity: LocalPoint, speed: Double, at time: GPSTime, window: Double) {
        let dt = last.map { time.since($0) } ?? window
        last = time
        guard dt > 0 else { return }
        let alpha = min(1, dt / window)
        meanVelocity.east += alpha * (velocity.east - meanVelocity.east)
        meanVelocity.north += alpha * (velocity.north - meanVelocity.north)
        meanSpeed += alpha * (speed - meanSpeed)
    }

    /// The mean Doppler speed over the window, while it is recent.
    func meanSpeed(at time: GPSTime, window: Double) -> Double? {
        guard let last, time.since(last) <= window else { return nil }
        return meanSpeed
    }

    /// |mean velocity| / mean speed in [0, 1]; nil while the Doppler is too slow to have a direction
    /// worth judging, or stale.
    func coherence(at time: GPSTime, minSpeed: Double, window: Double) -> Double? {
        guard let last, time.since(last) <= window, meanSpeed >= minSpeed else { return nil }
        let mean = (meanVelocity.east * meanVelocity.east + meanVelocity.north * meanVelocity.north).squareRoot()
        return min(1, mean / meanSpeed)
    }
}
