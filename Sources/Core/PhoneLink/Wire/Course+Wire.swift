import Course
import Foundation
import PhoneLinkContract
import TrackCore

/// A course as the link carries it: a `Course` message (deltas of 1e-7 degree and centimetres),
/// serialized and cut into parts that each travel as a COURSE command.
public enum CourseWire {
    /// A part's bytes at most: about 500 points.
    public static let partBytes = 4096
    /// A course's serialized bytes at most (about 130 000 points).
    public static let maximumBytes = 1 << 20

    public static func message(_ course: Course) -> Wearbridge_Link_V1_Course {
        var message = Wearbridge_Link_V1_Course()
        message.name = course.name
        var last = (lat: Int64(0), lon: Int64(0), cm: Int64(0))
        for point in course.points {
            let lat = Int64((point.position.latitude * 1e7).rounded())
            let lon = Int64((point.position.longitude * 1e7).rounded())
            let cm = Int64((point.distance * 100).rounded())
            message.latE7.append(Int32(lat - last.lat))
            message.lonE7.append(Int32(lon - last.lon))
            message.distanceCm.append(UInt32(max(0, cm - last.cm)))
            last = (lat, lon, cm)
        }
        message.turns = course.turns.map { turn in
            var wire = Wearbridge_Link_V1_CourseTurn()
            wire.distanceCm = UInt32((turn.distance * 100).rounded())
            wire.direction = Wearbridge_Link_V1_TurnDirection(turn.direction)
            return wire
        }
        return message
    }

    public static func encode(_ course: Course) -> [UInt8] { encode(message(course)) }

    public static func encode(_ message: Wearbridge_Link_V1_Course) -> [UInt8] {
        (try? message.serializedBytes()) ?? []
    }

    /// The course in `bytes`, checked as one from a stranger is: its name one clean line, its
    /// arrays of one length, its points a course (`Course(name:points:turns:)`).
    public static func decode(_ bytes: [UInt8]) throws(UnreadableCourse) -> Course {
        guard bytes.count <= maximumBytes else {
            throw UnreadableCourse("a course of \(bytes.count) bytes is too large")
        }
        let message: Wearbridge_Link_V1_Course
        do {
            message = try Wearbridge_Link_V1_Course(serializedBytes: bytes)
        } catch {
            throw UnreadableCourse("not a course: \(error)")
        }
        guard !message.name.isEmpty, CourseName.clean(message.name) == message.name else {
            throw UnreadableCourse(
                "a course needs a name of one line of at most \(CourseName.maximumLength) characters"
            )
        }
        let count = message.latE7.count
        guard message.lonE7.count == count, message.distanceCm.count == count else {
            throw UnreadableCourse("a course's latitudes, longitudes and distances differ in number")
        }
        var points: [CoursePoint] = []
        points.reserveCapacity(count)
        var lat = Int64(0)
        var lon = Int64(0)
        var cm = Int64(0)
        for index in 0..<count {
            lat += Int64(message.latE7[index])
            lon += Int64(message.lonE7[index])
            cm += Int64(message.distanceCm[index])
            let position = GeoPoint(latitude: Double(lat) / 1e7, longitude: Double(lon) / 1e7)
            points.append(CoursePoint(position: position, distance: Double(cm) / 100))
        }
        var turns: [CourseTurn] = []
        for turn in message.turns {
            guard let direction = TurnDirection(wire: turn.direction) else {
                throw UnreadableCourse("a turn of unknown direction")
            }
            turns.append(CourseTurn(distance: Double(turn.distanceCm) / 100, direction: direction))
        }
        guard let course = Course(name: message.name, points: points, turns: turns) else {
            throw UnreadableCourse(
                "its \(count) points are not a course (two plausible points at least, distances from 0 that grow "
                    + "by no less than each step, turns on it, at most \(Int(Course.maximumLength / 1000)) km)"
            )
        }
        return course
    }

    /// `bytes` cut into the parts of course `id`.
    public static func parts(of bytes: [UInt8], id: String) -> [Wearbridge_Link_V1_CoursePart] {
        let count = max(1, (bytes.count + partBytes - 1) / partBytes)
        return (0..<count).map { index in
            var part = Wearbridge_Link_V1_CoursePart()
            part.courseID = id
            part.index = UInt32(index)
            part.count = UInt32(count)
            part.totalBytes = UInt32(bytes.count)
            part.bytes = Data(bytes[(index * partBytes)..<min(bytes.count, (index + 1) * partBytes)])
            return part
        }
    }
}

/// Why a course off the link cannot be kept (the phone gets FAIL INVALID with it).
public struct UnreadableCourse: Error, Equatable, CustomStringConvertible {
    public var reason: String
    public init(_ reason: String) { self.reason = reason }
    public var description: String { reason }
}

extension Wearbridge_Link_V1_TurnDirection {
    init(_ direction: TurnDirection) {
        self =
            switch direction {
            case .left: .left
            case .right: .right
            case .sharpLeft: .sharpLeft
            case .sharpRight: .sharpRight
            case .uTurn: .uTurn
            }
    }
}

extension TurnDirection {
    init?(wire: Wearbridge_Link_V1_TurnDirection) {
        switch wire {
        case .left: self = .left
        case .right: self = .right
        case .sharpLeft: self = .sharpLeft
        case .sharpRight: self = .sharpRight
        case .uTurn: self = .uTurn
        case .unspecified, .UNRECOGNIZED: return nil
        }
    }
}
