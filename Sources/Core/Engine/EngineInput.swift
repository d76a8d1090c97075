import GATT
import HeartRate
import SessionCore

/// Everything that reaches the engine, one at a time.
public enum EngineInput: Sendable {
    /// gpsd's news, converted to the core's types at the gpsd edge (`GPSDProducer`).
    case gps(GPSInput)
    case strap(StrapLinkEvent)
    /// A footpod's or treadmill's samples and comings and goings.
    case speedSensor(SpeedSensorLinkEvent)
    /// The wearable's barometer (IIO), when one is configured.
    case barometer(BarometerEvent)
    /// The wearable's accelerometer (IIO), when an IMU is configured.
    case imu(IMUEvent)
    case command(CommandRequest)
    case status(ReplyToken)
    /// The writer's answer to an earlier `.persist` request.
    case storage(StoreReport)
    /// The main loop's heartbeat: GPS loss by silence, the batch commit, the watchdog, a held epoch.
    case tick
    /// The phone link's health and outbox, from its shell.
    case phoneLink(PhoneLinkReport)
    /// A virtual race's partner, newest figures (not durable: the next one replaces it).
    case partnerSnapshot(PartnerSnapshotReport)
    /// The cue player spoke or dropped a cue; `at`: the monotonic instant it did (a spoken cue's
    /// player ended then), so the log's time is the cue's, not when the engine got to it.
    case cue(CueOutcome, at: Double? = nil)
    /// Producers have stopped: flush, write the last batch, close the writer, answer everyone.
    case shutdown
}
