import Course
import Foundation
import PhoneServer
import RaceStore
import RelayClient
import RelayContract

extension RelayPump {
    /// A race held for the first time: asked once whether it is on a course. One that is, is kept
    /// among the phone's courses and sent to the wearable (its parts queued like `course send`'s),
    /// well before the race's order names it. A course the relay took but no wearable could follow
    /// cancels the race for both, with the reason.
    func followCourse(of run: RelayRun, _ feed: RelayFeed, now: Double) async throws {
        let id = run.id.uuidString.lowercased()
        guard let race = try store.relayRace(run: id), !race.courseChecked, race.state.isOpen else { return }
        // As the relay holds it, a stranger's: checked below.
        guard let relayCourse = try await RaceDesk(feed.relay).course(run.id) else {
            try await store.checkedCourse(run: id, name: nil, length: nil)
            return
        }
        let course: Course
        do {
            course = try relayCourse.course()
        } catch {
            logger.warning(
                "race: its course cannot be followed; cancelling it for both",
                metadata: ["run": "\(id)", "reason": "\(error)"]
            )
            try await store.checkedCourse(run: id, name: nil, length: nil)
            do {
                try await RaceDesk(feed.relay).cancel(run.id, reason: "the race's course is not a course: \(error)")
            } catch RelayError.refused(let code, _) where code == .notCancellable {}
            return
        }
        let kept = try await inbox.courses.keep(raceCourse: course, label: "race \(id.prefix(8))", at: now)
        let parts = try await inbox.courses.send(kept, to: wearable, at: now)
        try await store.checkedCourse(run: id, name: kept.course.name, length: kept.course.length)
        logger.notice(
            "race: on a course; it goes to the wearable",
            metadata: [
                "run": "\(id)", "course": "\(kept.course.name)", "length_m": "\(Int(kept.course.length))",
                "parts": "\(parts.count)",
            ]
        )
    }
}
