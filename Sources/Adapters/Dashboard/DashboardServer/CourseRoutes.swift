import Course
import CourseFiles
import Foundation
import Hummingbird
import Logging
import PhoneServer
import ProcessClock

/// The phone's courses from the page, as `wearbridge-phone course` does them: listed
/// (`GET /api/courses`), added from a GPX or FIT file's bytes (`POST /api/courses`, simplified to
/// the same 3 m, every turn kept), sent to a wearable part by part as durable commands
/// (`POST /api/wearables/{name}/courses/{course}`) and forgotten on the phone and the wearable
/// (`DELETE /api/wearables/{name}/courses/{course}`). The commands' standing is
/// `GET /api/commands/{id}`'s, like any command's.
struct CourseRoutes: Sendable {
    let inbox: Inbox
    let clock: WallClock
    let wearables: Set<String>
    let logger: Logger

    func list() throws -> Response {
        try JSONText.response(CourseList(courses: try inbox.courses.all().map(CourseList.Course.init)))
    }

    func add(_ request: Request) async throws -> Response {
        let body: ByteBuffer
        do {
            body = try await request.body.collect(upTo: CourseFile.maximumBytes)
        } catch {
            return JSONText.error(
                .contentTooLarge,
                "file_too_large",
                "a course file is at most \(CourseFile.maximumBytes >> 20) MiB"
            )
        }
        let query = request.uri.queryParameters
        let name = query["name"].map(String.init)
        if let name, CourseName.clean(name) == nil {
            return JSONText.error(.badRequest, "bad_name", "a course's name is one line of printable characters")
        }
        let source = query["file"].map { String($0.prefix(120)) } ?? "upload"
        let fallback = (source as NSString).deletingPathExtension
        let replace = query["replace"] == "true"
        let read: CourseFile
        let course: Course
        do {
            read = try CourseFile.parse([UInt8](buffer: body))
            course = try read.course(named: name, fallback: CourseName.clean(fallback) ?? "Course")
        } catch {
            return JSONText.error(.unprocessableContent, "unreadable_course", "\(error)")
        }
        let kept = PhoneCourse(
            simplifying: course,
            filePoints: read.positions.count,
            source: source,
            addedAt: clock.now()
        )
        let simple = kept.course
        guard try await inbox.courses.add(kept, replacing: replace) else {
            return JSONText.error(
                .conflict,
                "course_exists",
                "a course named \"\(simple.name)\" is kept already (add it with replace to replace it)"
            )
        }
        logger.info(
            "a course added from the dashboard",
            metadata: [
                "course": "\(simple.name)", "points": "\(simple.points.count)",
                "file_points": "\(read.positions.count)",
            ]
        )
        return try JSONText.response(CourseList.Course(kept), status: .created)
    }

    func send(wearable: String, course name: String) async throws -> Response {
        guard wearables.contains(wearable) else { return DashboardRoutes.unknownWearable(wearable) }
        guard let kept = try inbox.courses.named(name) else { return Self.unknown(name) }
        let ids = try await inbox.courses.send(kept, to: wearable, at: clock.now())
        logger.info("a course sent from the dashboard", metadata: ["course": "\(name)", "parts": "\(ids.count)"])
        return try JSONText.response(CourseSent(course: name, commands: ids), status: .accepted)
    }

    func remove(wearable: String, course name: String) async throws -> Response {
        guard wearables.contains(wearable) else { return DashboardRoutes.unknownWearable(wearable) }
        guard CourseName.clean(name) == name else { return Self.unknown(name) }
        let removed = try await inbox.courses.remove(named: name)
        let id = try await inbox.courses.queueRemoval(named: name, from: wearable, at: clock.now())
        logger.info("a course removed from the dashboard", metadata: ["course": "\(name)", "command": "\(id)"])
        return try JSONText.response(
            CourseRemoved(course: name, removedFromPhone: removed, command: id),
            status: .accepted
        )
    }

    /// A path segment as sent, percent-encoded (a course's name has spaces, a part's id a colon).
    static func decoded(_ segment: String?) -> String {
        let raw = segment ?? ""
        return raw.removingPercentEncoding ?? raw
    }

    static func unknown(_ name: String) -> Response {
        JSONText.error(.notFound, "unknown_course", "the phone keeps no course named \"\(name.prefix(64))\"")
    }
}
