import RelayContract

/// What the relay said about a race partner that their wearable is told of, in the race's own
/// order: their pause, resume and splits from their own messages; their finish and abandonment
/// from the relay's events.
public enum PartnerNews: Sendable, Equatable, CaseIterable {
    case paused, resumed, split, finished, abandoned

    /// Where an item read from the relay came from.
    public enum Source: String, Sendable, Equatable, CaseIterable, Encodable {
        /// One of the partner's messages, keyed by their seq.
        case message
        /// One of the relay's events, keyed by its id.
        case event
    }

    /// The news in an item read from the relay, if any: only the partner's own and the relay's
    /// events about them count.
    public init?(source: Source, kind: String, runner: String?, partner: String) {
        guard runner == partner else { return nil }
        self.init(source: source, kind: kind)
    }

    /// The news an item of this source and kind would carry, whoever it is about.
    public init?(source: Source, kind: String) {
        switch source {
        case .message:
            switch RelayMessage.Kind(rawValue: kind) {
            case .paused: self = .paused
            case .resumed: self = .resumed
            case .split: self = .split
            case .started, .snapshot, .finished, nil: return nil
            }
        case .event:
            switch RelayEvent.Kind(rawValue: kind) {
            case .finished: self = .finished
            case .abandoned: self = .abandoned
            default: return nil
            }
        }
    }
}
