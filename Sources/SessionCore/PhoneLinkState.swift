/// The link to the phone as its ends see it: traffic within the last few seconds (live), a
/// connection gone quiet (stale), or no connection (lost).
public enum PhoneLinkState: String, Sendable, Equatable, CaseIterable {
    case live
    case stale
    case lost
}
