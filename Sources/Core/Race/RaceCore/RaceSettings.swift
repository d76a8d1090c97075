/// How the wearable judges a race: the lead's hysteresis and when the partner's figures are too old.
public struct RaceSettings: Sendable, Equatable {
    /// A lead changes only beyond this gap (m), so runners side by side are not announced.
    public var leadMargin: Double = 5
    /// ...and only once the new lead has held beyond the margin for this long (s).
    public var leadHold: Double = 10
    /// The partner's newest snapshot older than this (s, on our clock since it arrived) is stale.
    public var staleAfter: Double = 5
    /// Older than this it is lost; "partner lost" is said once, "partner back" when a fresh one comes.
    public var lostAfter: Double = 20
    /// Own progress kept to compare against a late partner snapshot (s of elapsed time).
    public var historySeconds: Double = 120

    public init() {}
}
