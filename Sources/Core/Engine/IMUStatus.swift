import Gait

/// The IMU as `status` shows it, and the pedometer its samples feed.
public struct IMUStatus: Sendable, Equatable {
    public enum State: String, Sendable {
        /// Configured, nothing found yet (or gone, or not set up: `reason`).
        case absent
        /// Set up, no sample yet.
        case found
        case reading
        /// Its last read failed.
        case unreadable
    }

    public var state: State = .absent
    public let placement: Placement
    /// The kernel's name of the device, its sysfs path and the trigger driving its buffer.
    public var name: String?
    public var device: String?
    public var trigger: String?
    /// Scans a second asked for, and measured over the last batches.
    public var rate: Double?
    public var measuredRate: Double?
    public var samples = 0
    public var unreadable = 0
    /// The pedometer's last reading.
    public var steps = 0
    public var cadence: Double?
    public var still = false
    /// The monotonic instant of the last sample, and its age when `status` shows it.
    public var lastSampleAt: Double?
    public var lastSampleAge: Double?
    /// Why it is absent or unreadable.
    public var reason: String?

    public init(placement: Placement) {
        self.placement = placement
    }

    public mutating func update(_ event: IMUEvent) {
        switch event {
        case .found(let name, let device, let trigger, let rate):
            state = .found
            self.name = name
            self.device = device
            self.trigger = trigger
            self.rate = rate
            reason = nil
        case .samples(let batch):
            guard let last = batch.last else { return }
            state = .reading
            if let previous = lastSampleAt, last.time > previous {
                let rate = Double(batch.count) / (last.time - previous)
                measuredRate = measuredRate.map { $0 * 0.8 + rate * 0.2 } ?? rate
            }
            samples += batch.count
            lastSampleAt = last.time
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

    /// The pedometer's reading, for `status`.
    mutating func take(_ reading: Pedometer.Reading) {
        steps = reading.steps
        cadence = reading.cadence
        still = reading.still
    }
}
