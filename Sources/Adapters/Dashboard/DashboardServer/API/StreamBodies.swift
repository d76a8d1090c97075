/// The event stream's `hello`: the wearable's data log (its epoch) the stream follows, and where it
/// resumed.
struct Hello: DocumentedBody {
    static let schema = "#/components/schemas/Hello"

    var wearable: String
    var epoch: String
    @Nullable var resumedAfter: Int? = nil
    @Nullable var session: String? = nil
    var serverTimeMs: Int64
}

/// The event stream's `track`: the session's backfilled rows after `after` through `through`, as
/// points in local metres (east, north, seconds, 1 when paused) and beats (seconds, bpm).
struct TrackBody: DocumentedBody {
    static let schema = "#/components/schemas/Track"

    var session: String
    var after: Int
    var through: Int
    var points: [[Double]]
    var beats: [[Double]]
    @Nullable var contact: String? = nil
    var paused: Bool
    /// The course the session follows, in the points' frame: sent in the piece that names it.
    @Nullable var course: Course? = nil

    struct Course: Encodable, Sendable, Equatable {
        var name: String
        var lengthM: Double
        /// [east m, north m] of each of its points.
        var points: [[Double]]
    }
}
