/// What a session log and the wearer's cues want to know about the strap.
public enum StrapEvent: Sendable, Equatable {
    /// The first beat from the strap since the daemon started.
    case found(address: String)
    /// The strap stopped: link dropped, connection failed after a drop, or silent while connected.
    case lost(reason: String)
    /// Beats again after a loss, `after` seconds later.
    case regained(after: Double)
    case contactLost
    case contactRegained
    /// Battery level in percent, when it changed.
    case battery(level: Int)
}
