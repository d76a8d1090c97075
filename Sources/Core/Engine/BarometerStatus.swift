/// The barometer as `status` shows it.
public struct BarometerStatus: Sendable, Equatable {
    public enum State: String, Sendable {
        /// Configured, nothing found yet (or gone).
        case absent
        /// Found, no reading yet.
        case found
        case reading
        /// Its last read failed.
        case unreadable
    }

    public var state: State = .absent
    /// The kernel's name of the device and its sysfs path.
    public var name: String?
    public var device: String?
    public var kilopascal: Double?
    /// The monotonic instant of the last reading, and its age when `status` shows it.
    public var lastReadingAt: Double?
    public var lastReadingAge: Double?
    public var readings = 0
    public var unreadable = 0
    /// Why it is absent or unreadable.
    public var reason: String?

    public init() {}

    public mutating func update(_ event: BarometerEvent) {
        switch event {
        case .found(let name, let device):
            state = .found
            self.name = name
            self.device = device
            reason = nil
        case .reading(let kilopascal, let receivedAt):
            state = .reading
            self.kilopascal = kilopascal
            lastReadingAt = receivedAt
            readings += 1
            reason = nil
        case .unreadable(let why, _):
            state = .unreadable
            unreadable += 1
            reason = why
        case .absent(let why):
            state = .absent
            reason = why
        }
    }
}
