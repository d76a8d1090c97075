import ATT
import SessionCore
import TrackCore

/// What the engine's shell must do, in order.
public enum EngineAction: Sendable, Equatable {
    /// Hand to the store's writer.
    case persist(StoreRequest)
    /// Answer whoever holds this token: exactly once per token.
    case reply(ReplyToken, EngineReply)
    /// Tell every sink.
    case announce(Announcement)
    /// Tell the sinks that read figures (only with `readings`).
    case reading(LiveReading)
    /// The main loop is alive (systemd's watchdog).
    case watchdog
    /// "first-seen" picked this strap: the next start connects to it.
    case rememberStrap(BluetoothAddress)
    /// Storage started or stopped failing (systemd's STATUS line, say).
    case storageHealth(StorageFailure?)
    /// Send a `.tick` at this monotonic instant (a race's countdown call, "go" above all).
    case wake(at: Double)
    /// All done after shutdown: every reply given; `unwritten` rows never reached the disk.
    case finished(unwritten: Int)
}
