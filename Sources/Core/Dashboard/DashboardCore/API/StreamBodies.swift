/// The event stream's `hello`: the wearable's data log (its epoch) the stream follows, and where it
/// resumed.
public struct Hello: DocumentedBody {
    public static let schema = "#/components/schemas/Hello"

    public var wearable: String
    public var epoch: String
    @Nullable public var resumedAfter: Int?
    @Nullable public var session: String?
    public var serverTimeMs: Int64

    public init(wearable: String, epoch: String, resumedAfter: Int?, session: String?, serverTimeMs: Int64) {
        self.wearable = wearable
        self.epoch = epoch
        self.resumedAfter = resumedAfter
        self.session = session
        self.serverTimeMs = serverTimeMs
    }
}

/// The event stream's `track`: the session's backfilled rows after `after` through `through`, as
/// points in local metres (east, north, seconds, 1 when paused) and beats (seconds, bpm).
public struct TrackBody: DocumentedBody {
    public static let schema = "#/components/schemas/Track"

    public var session: String
    public var after: Int
    public var through: Int
    public var points: [[Double]]
    public var beats: [[Double]]
    @Nullable public var contact: String?
    public var paused: Bool

    public init(
        session: String,
        after: Int,
        through: Int,
        points: [[Double]],
        beats: [[Double]],
        contact: String?,
        paused: Bool
    ) {
        self.session = session
        self.after = after
        self.through = through
        self.points = points
        self.beats = beats
        self.contact = contact
        self.paused = paused
    }
}
