/// The link to the phone as its ends see it: traffic within the last few seconds (live), a
/// connection gone quiet (stale), or no connection (lost).
public enum PhoneLinkState: String, Sendable, Equatable, CaseIterable {
    case live
    case stale
    case lost
}

extension PhoneLinkState {
    /// A quiet link is lost after this many times its stale limit, on the phone's side.
    public static let lostAfterStale = 6.0

    /// The phone's judgement from its link row: `silence` is the seconds since it last heard the
    /// wearable (nil: never). One rule for `wearbridge-phone status` and the dashboard's strip.
    public static func judged(connected: Bool, silence: Double?, staleAfter: Double) -> PhoneLinkState {
        guard connected, let silence, silence <= staleAfter * lostAfterStale else { return .lost }
        return silence > staleAfter ? .stale : .live
    }
}
