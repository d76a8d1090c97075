/// One configured wearable in the list: its link and newest snapshot (`WearableSummary`).
struct WearableSummary: DocumentedBody {
    static let schema = "#/components/schemas/WearableSummary"

    var name: String
    @Nullable var helloName: String? = nil
    var link: LinkBody
    @Nullable var snapshot: SnapshotBody? = nil
}

/// `GET /api/wearables`.
struct WearableList: DocumentedBody {
    static let schema = response("/api/wearables", "get", 200)

    var wearables: [WearableSummary]
    var serverTimeMs: Int64
}

/// `GET /api/wearables/{name}`: one wearable's live state (`Live`).
struct Live: DocumentedBody {
    static let schema = "#/components/schemas/Live"

    /// The newest session of the wearable's data log.
    struct Session: Encodable, Sendable, Equatable {
        var id: String
        var startedSeq: Int
        var ended: Bool
    }

    var name: String
    @Nullable var helloName: String? = nil
    @Nullable var epoch: String? = nil
    var link: LinkBody
    @Nullable var snapshot: SnapshotBody? = nil
    @Nullable var session: Session? = nil
    var serverTimeMs: Int64
}

/// `GET /api/health`.
struct Health: DocumentedBody {
    static let schema = response("/api/health", "get", 200)

    var ok = true
    var openStreams: Int
}

/// `POST /api/pair`.
struct Paired: DocumentedBody {
    static let schema = response("/api/pair", "post", 200)

    var paired = true
}
