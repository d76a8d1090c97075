/// What the barometer's shell reports: the device it found, each reading, and what went wrong.
public enum BarometerEvent: Sendable, Equatable {
    /// An IIO device with a pressure channel: its kernel name (`bmp280`) and sysfs path.
    case found(name: String, device: String)
    /// kPa, read at a monotonic instant.
    case reading(kilopascal: Double, receivedAt: Double)
    /// A read that gave no pressure (an I/O error, text that is no number), and why.
    case unreadable(reason: String, receivedAt: Double)
    /// No barometer: none found, or the one found is gone; why.
    case absent(reason: String)
}
