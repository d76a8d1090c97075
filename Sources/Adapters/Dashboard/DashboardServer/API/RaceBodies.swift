import PhoneRaceCore
import RaceCore
import RelayContract

/// A race of this wearable as the phone holds it (`Race`): the partner as the wearer hears them,
/// judged by the same rules as on the wearable.
struct RaceBody: DocumentedBody {
    static let schema = "#/components/schemas/Race"

    /// Who leads.
    enum Leader: String, Encodable, Sendable, CaseIterable {
        case me, partner
    }

    /// A partner item in the panel's log: a message or an event, as the relay carried it.
    struct Event: Encodable, Sendable, Equatable {
        var source: PartnerNews.Source
        var kind: String
        @Nullable var runner: String? = nil
        var atMs: Int64
    }

    var run: String
    var partner: String
    var relayState: RelayRun.State
    var startAtMs: Int64
    var startsInS: Double
    @Nullable var distanceM: Double? = nil
    @Nullable var activity: String? = nil
    @Nullable var session: String? = nil
    var partnerState: PartnerState
    var partnerLink: PartnerLink
    @Nullable var partnerDistanceM: Double? = nil
    @Nullable var partnerElapsedS: Double? = nil
    @Nullable var partnerAgeS: Double? = nil
    @Nullable var ownDistanceM: Double? = nil
    @Nullable var ownElapsedS: Int? = nil
    @Nullable var gapM: Double? = nil
    /// How long ago the leader was where the other is (s, positive when this runner leads).
    @Nullable var gapS: Double? = nil
    @Nullable var leader: Leader? = nil
    /// A race on a course: its name; the distances and the gap are along it.
    @Nullable var course: String? = nil
    var events: [Event]
}

/// The event stream's `race` event: the race (null once there is none).
struct RaceEvent: DocumentedBody {
    static let schema = "#/components/schemas/RaceEvent"

    @Nullable var race: RaceBody? = nil
    var serverTimeMs: Int64
}

/// `GET /api/wearables/{name}/race`: the race and the relay's runner (null without `[relay]`).
struct RaceState: DocumentedBody {
    static let schema = response("/api/wearables/{name}/race", "get", 200)

    /// The runner this phone is at the relay.
    struct Relay: Encodable, Sendable, Equatable {
        var runner: String
    }

    @Nullable var race: RaceBody? = nil
    @Nullable var relay: Relay? = nil
    var serverTimeMs: Int64
}

/// An invite or race at the relay (`RelayRun`).
struct RelayRunBody: DocumentedBody {
    static let schema = "#/components/schemas/RelayRun"

    var run: String
    var inviter: String
    var invitee: String
    var partner: String
    var activity: String
    @Nullable var distanceM: Double? = nil
    var state: RelayRun.State
    var expiresAtMs: Int64
    @Nullable var startAtMs: Int64? = nil
}

/// `GET /api/race/runs`.
struct RunList: DocumentedBody {
    static let schema = response("/api/race/runs", "get", 200)

    var runs: [RelayRunBody]
    var runner: String
}

/// `POST /api/race/invites`.
struct Invited: DocumentedBody {
    static let schema = response("/api/race/invites", "post", 201)

    var run: String
    var state = RelayRun.State.invited
}

/// `POST /api/race/runs/{run}/accept`.
struct Accepted: DocumentedBody {
    static let schema = response("/api/race/runs/{run}/accept", "post", 200)

    var run: String
    var state = RelayRun.State.accepted
    var startAtMs: Int64
}

/// `GET /api/races`: the races this phone ran that are over, newest first, each runner's figures
/// and whether their route is held (the map is `GET /api/races/{run}/map.svg`).
struct RaceHistoryList: DocumentedBody {
    static let schema = response("/api/races", "get", 200)

    /// One runner of a race that is over.
    struct Runner: Encodable, Sendable, Equatable {
        var name: String
        @Nullable var distanceM: Double? = nil
        @Nullable var elapsedS: Double? = nil
        /// The points of their route the phone holds; null when it holds none.
        @Nullable var routePoints: Int? = nil
    }

    struct Race: Encodable, Sendable, Equatable {
        var run: String
        var state: RelayRun.State
        var startAtMs: Int64
        @Nullable var winner: String? = nil
        var mine: Runner
        var partner: Runner
        /// Changes of the lead, judged from both routes; null until both are held.
        @Nullable var leadChanges: Int? = nil
    }

    var races: [Race]
}
