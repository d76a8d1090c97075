/// How fresh the partner's figures are, judged on our own clock from when their newest snapshot
/// arrived (never from their clock or the relay's).
public enum PartnerLink: String, Sendable, Equatable, Codable, CaseIterable {
    case live, stale, lost
}

/// Where the partner is in their race, from their events and snapshots. A paused partner is paused,
/// whatever the age of their figures.
public enum PartnerState: String, Sendable, Equatable, Codable, CaseIterable {
    case waiting, running, paused, finished, abandoned
}
