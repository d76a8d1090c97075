import Course
import DashboardCore
import PhoneLinkContract
import PhoneServer

/// Backfilled rows turned into what the page draws: accepted fixes (smoothed) as points in local
/// metres, paused or not, the beats with their sensor contact, and the course the session follows
/// (the phone's copy of the course its `course_following` event names) in the same frame.
struct TrackPiece {
    private(set) var paused: Bool
    private(set) var view: TrackView
    private var points: [[Double]] = []
    private var beats: [[Double]] = []
    private var contact: String?
    private var course: TrackBody.Course?
    /// The phone's course of that name, if it keeps one.
    private let courseNamed: (String) -> Course?

    init(paused: Bool, view: TrackView, courseNamed: @escaping (String) -> Course?) {
        self.paused = paused
        self.view = view
        self.courseNamed = courseNamed
    }

    mutating func take(_ record: BackfillRecord) {
        switch record.row.row {
        case .fix(let fix):
            guard fix.verdict == "accepted", fix.smoothedLat.isFinite, fix.smoothedLon.isFinite, fix.time > 0 else {
                return
            }
            guard
                let point = view.place(
                    latitude: fix.smoothedLat,
                    longitude: fix.smoothedLon,
                    time: fix.time,
                    paused: paused
                )
            else { return }
            points.append([
                (point.east * 10).rounded() / 10, (point.north * 10).rounded() / 10, (point.time * 10).rounded() / 10,
                point.paused ? 1 : 0,
            ])
        case .beat(let beat):
            guard beat.time > 0 else { return }
            beats.append([(beat.time * 10).rounded() / 10, Double(beat.bpm)])
            contact = beat.contact
        case .event(let event) where event.kind == "course_following":
            guard let name = event.followedCourse, let followed = courseNamed(name),
                let local = view.place(course: followed.points.map(\.position))
            else { return }
            course = TrackBody.Course(
                name: followed.name,
                lengthM: (followed.length * 10).rounded() / 10,
                points: local.map { [($0.east * 10).rounded() / 10, ($0.north * 10).rounded() / 10] }
            )
        case .event(let event):
            switch PauseTransition(storedKind: event.kind) {
            case .pauses: paused = true
            case .resumes: paused = false
            case nil: break
            }
        case .command, .speed, nil:
            // The track is GPS's; an indoor session's distance reaches the page in its snapshots.
            break
        }
    }

    /// The piece as the stream's `track` event: rows after `after` through `through`.
    func body(session: String, after: Int, through: Int) -> TrackBody {
        TrackBody(
            session: session,
            after: after,
            through: through,
            points: points,
            beats: beats,
            contact: contact,
            paused: paused,
            course: course
        )
    }
}
