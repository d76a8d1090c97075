/// One configured wearable in the list: its link and newest snapshot (`WearableSummary`).
public struct WearableSummary: DocumentedBody {
    public static let schema = "#/components/schemas/WearableSummary"

    public var name: String
    @Nullable public var helloName: String?
    public var link: LinkBody
    @Nullable public var snapshot: SnapshotBody?

    public init(name: String, helloName: String?, link: LinkBody, snapshot: SnapshotBody?) {
        self.name = name
        self.helloName = helloName
        self.link = link
        self.snapshot = snapshot
    }
}

/// `GET /api/wearables`.
public struct WearableList: DocumentedBody {
    public static let schema = response("/api/wearables", "get", 200)

    public var wearables: [WearableSummary]
    public var serverTimeMs: Int64

    public init(wearables: [WearableSummary], serverTimeMs: Int64) {
        self.wearables = wearables
        self.serverTimeMs = serverTimeMs
    }
}

/// `GET /api/wearables/{name}`: one wearable's live state (`Live`).
public struct Live: DocumentedBody {
    public static let schema = "#/components/schemas/Live"

    /// The newest session of the wearable's data log.
    public struct Session: Encodable, Sendable, Equatable {
        public var id: String
        public var startedSeq: Int
        public var ended: Bool

        public init(id: String, startedSeq: Int, ended: Bool) {
            self.id = id
            self.startedSeq = startedSeq
            self.ended = ended
        }
    }

    public var name: String
    @Nullable public var helloName: String?
    @Nullable public var epoch: String?
    public var link: LinkBody
    @Nullable public var snapshot: SnapshotBody?
    @Nullable public var session: Session?
    public var serverTimeMs: Int64

    public init(
        name: String,
        helloName: String?,
        epoch: String?,
        link: LinkBody,
        snapshot: SnapshotBody?,
        session: Session?,
        serverTimeMs: Int64
    ) {
        self.name = name
        self.helloName = helloName
        self.epoch = epoch
        self.link = link
        self.snapshot = snapshot
        self.session = session
        self.serverTimeMs = serverTimeMs
    }
}

/// `GET /api/health`.
public struct Health: DocumentedBody {
    public static let schema = response("/api/health", "get", 200)

    public var ok = true
    public var openStreams: Int

    public init(openStreams: Int) {
        self.openStreams = openStreams
    }
}

/// `POST /api/pair`.
public struct Paired: DocumentedBody {
    public static let schema = response("/api/pair", "post", 200)

    public var paired = true

    public init() {}
}
