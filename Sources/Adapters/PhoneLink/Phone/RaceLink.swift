import PhoneLinkContract

/// What the link asks of the race, which lives above it (`RaceStore`): the partner's newest figures
/// for a wearable, and its countdowns handed again when it reconnects.
public protocol RaceLink: Sendable {
    /// Moves each time something about a partner was stored: a reader re-reads only when it moved.
    var partnerChanges: Int { get }
    /// The partner's newest snapshot for each race of `wearable` under way or just ended, as the
    /// link sends it, shown on the wearable for `shownFor` seconds after the relay received it.
    func partnerSnapshots(wearable: String, shownFor: Double) throws -> [Wearbridge_Link_V1_PartnerSnapshot]
    /// A (re)connected wearable may have restarted and lost an armed countdown.
    func reconnected(wearable: String, now: Double) async throws
}
