import Course
import PhoneLinkWire

/// The courses the wearable keeps, by name, and the parts of those still arriving: pure. A part is
/// taken once (its command's id is the ledger's business); a course is kept once all its parts
/// are there and their bytes are a course, replacing one of the same name.
public struct CourseShelf: Sendable {
    /// A course kept: its id (this version of it) and its serialized form, as the log holds it.
    public struct Kept: Sendable, Equatable {
        public var id: String
        public var course: Course
        public var bytes: [UInt8]

        public init(id: String, course: Course, bytes: [UInt8]) {
            self.id = id
            self.course = course
            self.bytes = bytes
        }
    }

    /// Courses arriving at once, at most: a part of another is refused until one is done.
    public static let maximumArriving = 4

    public private(set) var kept: [String: Kept] = [:]
    /// Parts by course id, then index.
    public private(set) var arriving: [String: [Int: CoursePart]] = [:]

    public enum Outcome: Sendable, Equatable {
        /// Kept, `have` of the course's parts now here.
        case part(have: Int)
        /// The last part: the course is kept (and replaces any of its name).
        case kept(Kept)
        /// Not taken; nothing changed.
        case refused(String)
        /// Its parts are all here and are not a course: they are dropped.
        case unreadable(String)
    }

    /// `loaded`: what the log holds (kept courses, parts of unfinished ones).
    public init(kept: [Kept] = [], parts: [CoursePart] = []) {
        for course in kept { self.kept[course.course.name] = course }
        for part in parts where Self.check(part) == nil { arriving[part.courseID, default: [:]][part.index] = part }
    }

    public func course(named name: String) -> Course? { kept[name]?.course }

    /// Forgets the course of this name; what was kept, if anything.
    public mutating func remove(named name: String) -> Kept? { kept.removeValue(forKey: name) }

    /// Why `part` cannot be one, if it cannot: its numbers disagree with themselves.
    static func check(_ part: CoursePart) -> String? {
        let size = CourseWire.partBytes
        guard !part.courseID.isEmpty, part.courseID.utf8.count <= 64 else { return "a course part needs a course id" }
        guard part.totalBytes > 0, part.totalBytes <= CourseWire.maximumBytes else {
            return "a course of \(part.totalBytes) bytes: at most \(CourseWire.maximumBytes)"
        }
        let count = (part.totalBytes + size - 1) / size
        guard part.count == count, part.index >= 0, part.index < count else {
            return "part \(part.index) of \(part.count) of a course of \(part.totalBytes) bytes in parts of \(size)"
        }
        let expected = part.index == count - 1 ? part.totalBytes - size * (count - 1) : size
        guard part.bytes.count == expected else {
            return "part \(part.index) has \(part.bytes.count) bytes, not \(expected)"
        }
        return nil
    }

    /// Takes a part (already new by its command's id).
    public mutating func take(_ part: CoursePart) -> Outcome {
        if let problem = Self.check(part) { return .refused(problem) }
        if kept.values.contains(where: { $0.id == part.courseID }) { return .refused("that course is already kept") }
        var parts = arriving[part.courseID] ?? [:]
        if let first = parts.values.first, first.totalBytes != part.totalBytes {
            return .refused(
                "part \(part.index) says \(part.totalBytes) bytes; its course's other parts \(first.totalBytes)"
            )
        }
        if parts.isEmpty, arriving.count >= Self.maximumArriving {
            return .refused("\(Self.maximumArriving) courses are already arriving; send one at a time")
        }
        parts[part.index] = part
        guard parts.count == part.count else {
            arriving[part.courseID] = parts
            return .part(have: parts.count)
        }
        arriving[part.courseID] = nil
        let bytes = (0..<part.count).flatMap { parts[$0]!.bytes }
        do {
            let course = try CourseWire.decode(bytes)
            let done = Kept(id: part.courseID, course: course, bytes: bytes)
            kept[course.name] = done
            return .kept(done)
        } catch {
            return .unreadable(error.reason)
        }
    }
}
