import Gait

/// What the IMU's shell reports: the accelerometer it set up, its samples as they are read, and
/// what went wrong.
public enum IMUEvent: Sendable, Equatable {
    /// An IIO accelerometer reading buffered: its kernel name (`bmi160`), sysfs path, the trigger
    /// driving it and the rate asked of it (scans a second).
    case found(name: String, device: String, trigger: String, rate: Double)
    /// The samples read since the last (m/s², on the monotonic clock), oldest first.
    case samples([AccelerationSample])
    /// A read that failed, and why, at a monotonic instant.
    case unreadable(reason: String, receivedAt: Double)
    /// No accelerometer: none found, it could not be set up, or it is gone; why.
    case absent(reason: String)
}
