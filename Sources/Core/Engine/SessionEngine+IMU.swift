import Gait
import SessionCore
import SpeedSensors
import TrackCore

extension SessionEngine {
    /// The calibration's name for the steps of an IMU worn at `placement` (what its stretches are
    /// stored under, as a footpod's are under its address): a stride is the wearer's and the
    /// placement's, not the chip's.
    public static func stepsSensor(_ placement: Placement) -> String { "steps:\(placement.rawValue)" }

    /// The accelerometer's news: its status, and each second of samples a pedometer reading into
    /// the open session (logged; where no footpod is configured, the session's strides too).
    mutating func imu(_ event: IMUEvent, _ now: Instant) {
        // The pedometer is changed where it stands (`pedometer?.add`), not copied out and back:
        // its detector's windows would be copied at every batch.
        guard imuStatus != nil, let placement = pedometer?.placement else { return }
        imuStatus?.update(event)
        switch event {
        case .found:
            if configuration.session.stepsCountDistance { controller.footpodConnected(Self.stepsSensor(placement)) }
        case .samples(let batch):
            for sample in batch {
                guard let reading = pedometer?.add(sample) else { continue }
                imuStatus?.take(reading)
                guard !queue.isFailing else {
                    if controller.session != nil { queue.skipped(.beat) }
                    continue
                }
                controller.speed(SpeedSensorSample(pedometer: reading), into: &output)
                if configuration.session.stepsCountDistance { raceStride(receivedAt: reading.time, now) }
            }
        case .unreadable, .absent:
            break
        }
    }

    /// The IMU's cadence for the live figures, when it read one in the last 5 s.
    func imuCadence(now: Double) -> Int? {
        guard let status = imuStatus, status.state == .reading, let cadence = status.cadence,
            let last = status.lastSampleAt, now - last < 5
        else { return nil }
        return Int(cadence.rounded())
    }
}

extension SpeedSensorSample {
    /// A pedometer's reading as the session takes a stride sensor's: source `steps`, its metres
    /// the cumulative count, received at its last sample's instant.
    public init(pedometer reading: Pedometer.Reading) {
        self.init(
            source: .steps,
            reading: SpeedSample(
                speed: reading.speed,
                cadence: reading.cadence.map { Int($0.rounded()) },
                strideLength: reading.stepLength,
                totalDistance: reading.metres,
                steps: reading.steps,
                still: reading.still
            ),
            receivedAt: reading.time
        )
    }
}
