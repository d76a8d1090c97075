import Bluetooth
import Control
import GPSDLink

/// Everything that reaches the engine, on one stream, so that it handles one thing at a time.
enum EngineInput: Sendable {
    case gpsd(GPSDLinkEvent)
    case strap(StrapLinkEvent)
    case control(ControlRequest, respond: @Sendable (ControlReply) -> Void)
    /// The main loop's heartbeat: GPS loss by silence, batch commit, watchdog, a held short epoch.
    case tick
}
