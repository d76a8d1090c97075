/// A race of this wearable as the phone holds it (`Race`): the partner as the wearer hears them,
/// judged by the same rules as on the wearable.
public struct RaceBody: DocumentedBody {
    public static let schema = "#/components/schemas/Race"

    /// Who leads.
    public enum Leader: String, Encodable, Sendable, CaseIterable {
        case me, partner
    }

    /// A partner item in the panel's log: a message or an event, as the relay carried it.
    public struct Event: Encodable, Sendable, Equatable {
        public var source: String
        public var kind: String
        @Nullable public var runner: String?
        public var atMs: Int64

        public init(source: String, kind: String, runner: String?, atMs: Int64) {
            self.source = source
            self.kind = kind
            self.runner = runner
            self.atMs = atMs
        }
    }

    public var run: String
    public var partner: String
    public var relayState: String
    public var startAtMs: Int64
    public var startsInS: Double
    @Nullable public var distanceM: Double?
    @Nullable public var activity: String?
    @Nullable public var session: String?
    public var partnerState: String
    public var partnerLink: String
    @Nullable public var partnerDistanceM: Double?
    @Nullable public var partnerElapsedS: Double?
    @Nullable public var partnerAgeS: Double?
    @Nullable public var ownDistanceM: Double?
    @Nullable public var ownElapsedS: Int?
    @Nullable public var gapM: Double?
    @Nullable public var leader: Leader?
    public var events: [Event]

    public init(
        run: String,
        partner: String,
        relayState: String,
        startAtMs: Int64,
        startsInS: Double,
        distanceM: Double?,
        activity: String?,
        session: String?,
        partnerState: String,
        partnerLink: String,
        partnerDistanceM: Double?,
        partnerElapsedS: Double?,
        partnerAgeS: Double?,
        ownDistanceM: Double?,
        ownElapsedS: Int?,
        gapM: Double?,
        leader: Leader?,
        events: [Event]
    ) {
        self.run = run
        self.partner = partner
        self.relayState = relayState
        self.startAtMs = startAtMs
        self.startsInS = startsInS
        self.distanceM = distanceM
        self.activity = activity
        self.session = session
        self.partnerState = partnerState
        self.partnerLink = partnerLink
        self.partnerDistanceM = partnerDistanceM
        self.partnerElapsedS = partnerElapsedS
        self.partnerAgeS = partnerAgeS
        self.ownDistanceM = ownDistanceM
        self.ownElapsedS = ownElapsedS
        self.gapM = gapM
        self.leader = leader
        self.events = events
    }
}

/// The event stream's `race` event: the race (null once there is none).
public struct RaceEvent: DocumentedBody {
    public static let schema = "#/components/schemas/RaceEvent"

    @Nullable public var race: RaceBody?
    public var serverTimeMs: Int64

    public init(race: RaceBody?, serverTimeMs: Int64) {
        self.race = race
        self.serverTimeMs = serverTimeMs
    }
}

/// `GET /api/wearables/{name}/race`: the race and the relay's runner (null without `[relay]`).
public struct RaceState: DocumentedBody {
    public static let schema = response("/api/wearables/{name}/race", "get", 200)

    /// The runner this phone is at the relay.
    public struct Relay: Encodable, Sendable, Equatable {
        public var runner: String

        public init(runner: String) {
            self.runner = runner
        }
    }

    @Nullable public var race: RaceBody?
    @Nullable public var relay: Relay?
    public var serverTimeMs: Int64

    public init(race: RaceBody?, relay: Relay?, serverTimeMs: Int64) {
        self.race = race
        self.relay = relay
        self.serverTimeMs = serverTimeMs
    }
}

/// An invite or race at the relay (`RelayRun`).
public struct RelayRunBody: DocumentedBody {
    public static let schema = "#/components/schemas/RelayRun"

    public var run: String
    public var inviter: String
    public var invitee: String
    public var partner: String
    public var activity: String
    @Nullable public var distanceM: Double?
    public var state: String
    public var expiresAtMs: Int64
    @Nullable public var startAtMs: Int64?

    public init(
        run: String,
        inviter: String,
        invitee: String,
        partner: String,
        activity: String,
        distanceM: Double?,
        state: String,
        expiresAtMs: Int64,
        startAtMs: Int64?
    ) {
        self.run = run
        self.inviter = inviter
        self.invitee = invitee
        self.partner = partner
        self.activity = activity
        self.distanceM = distanceM
        self.state = state
        self.expiresAtMs = expiresAtMs
        self.startAtMs = startAtMs
    }
}

/// `GET /api/race/runs`.
public struct RunList: DocumentedBody {
    public static let schema = response("/api/race/runs", "get", 200)

    public var runs: [RelayRunBody]
    public var runner: String

    public init(runs: [RelayRunBody], runner: String) {
        self.runs = runs
        self.runner = runner
    }
}

/// `POST /api/race/invites`.
public struct Invited: DocumentedBody {
    public static let schema = response("/api/race/invites", "post", 201)

    public var run: String
    public var state = "invited"

    public init(run: String) {
        self.run = run
    }
}

/// `POST /api/race/runs/{run}/accept`.
public struct Accepted: DocumentedBody {
    public static let schema = response("/api/race/runs/{run}/accept", "post", 200)

    public var run: String
    public var state = "accepted"
    public var startAtMs: Int64

    public init(run: String, startAtMs: Int64) {
        self.run = run
        self.startAtMs = startAtMs
    }
}
