import RelayContract

/// The phone's decisions about a race's countdown on the wearable, from the races it holds, what
/// the relay says of them now, and the time: when the order goes to the wearable, when it is handed
/// again, when a race the wearable cannot take is cancelled for both, and when an armed countdown
/// is disarmed. Pure: the relay pump reads the clock once a tick and carries out what comes back.
public enum RaceOrders {
    /// What the pump is to do about one race.
    public enum Action: Sendable, Equatable {
        /// Queue the order that arms the wearable's countdown (once per race).
        case order(run: String)
        /// Hand the order again under a new id (the wearable was not ready, or may have restarted).
        case handAgain(run: String)
        /// The wearable cannot take the race: cancel it at the relay for both runners, saying why.
        case cancelAtRelay(run: String, reason: String)
        /// Queue the cancel that disarms a countdown that was (or may be) armed.
        case disarm(run: String)
    }

    /// The countdown goes to the wearable this long (s) before the start: its first call is at 30 s,
    /// and a wearable just switched on has had the time since the invite to find a fix.
    public static let lead = 35.0
    /// The last order for a wearable not yet ready goes this long (s) before the start: one armed
    /// later would start late, so after it the race is cancelled for both.
    public static let lastHanding = 3.0
    /// An order is handed again at most this often (s).
    public static let handAgainEvery = 2.0
    /// No order is queued (first or again) closer to the start than this (s).
    public static let noneWithin = 2.0
    /// A countdown is disarmed only for a start at most this far past (s).
    public static let disarmWithin = 60.0

    /// The actions for `races` at `now`, given the states the relay gave in its newest list
    /// (`relay`, by run; a run it no longer lists is not cancelled on its behalf).
    public static func decide(_ races: [PhoneRace], relay: [String: RelayRun.State], now: Double) -> [Action] {
        races.compactMap { race in
            guard !race.hasSession else { return nil }
            switch race.state {
            case .accepted: return accepted(race, relay: relay[race.run], now: now)
            case .cancelled, .declined, .expired:
                // Only a countdown that was (or may be) armed needs disarming.
                guard let order = race.order, race.startAt > now - disarmWithin else { return nil }
                switch order.answer {
                case .waiting, .took: return .disarm(run: race.run)
                case .notReady, .cannot, .lapsed: return nil
                }
            case .invited, .complete, .abandoned: return nil
            }
        }
    }

    private static func accepted(_ race: PhoneRace, relay: RelayRun.State?, now: Double) -> Action? {
        let until = race.startAt - now
        guard let order = race.order else {
            return until > noneWithin && until <= lead ? .order(run: race.run) : nil
        }
        let message: String
        let notReady: Bool
        switch order.answer {
        case .notReady(let said): (message, notReady) = (said, true)
        case .cannot(let said): (message, notReady) = (said, false)
        case .waiting, .took, .lapsed: return nil
        }
        guard relay == .accepted else { return nil }
        // Not ready yet (no fix so soon after it was switched on), or it took the race, restarted and
        // cannot take it again yet: handed again until shortly before the start. Only a wearable that
        // never took it is then given up.
        if order.taken || notReady, until > lastHanding {
            return now - order.issuedAt > handAgainEvery ? .handAgain(run: race.run) : nil
        }
        if order.taken { return nil }
        return .cancelAtRelay(run: race.run, reason: message)
    }
}
