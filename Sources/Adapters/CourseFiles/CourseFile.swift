import Course
import Foundation
import TrackCore

/// A course as its file gives it: its name if it has one, its points in order and the turns it
/// declares (a FIT course's turn points). Read from GPX (a track, or else a route) or a FIT course
/// (or any FIT file with positions: an activity run again as a course).
public struct CourseFile: Sendable, Equatable {
    public enum Format: String, Sendable, Equatable {
        case gpx
        case fit
    }

    /// A turn the file declares, where it puts it.
    public struct DeclaredTurn: Sendable, Equatable {
        public var position: GeoPoint
        public var direction: TurnDirection

        public init(position: GeoPoint, direction: TurnDirection) {
            self.position = position
            self.direction = direction
        }
    }

    public var format: Format
    public var name: String?
    public var positions: [GeoPoint]
    public var turns: [DeclaredTurn]

    /// Larger files are refused before they are parsed (a marathon's GPX at a point a metre is
    /// about 5 MB).
    public static let maximumBytes = 16 << 20
    /// More points are refused (a point a metre for 100 km).
    public static let maximumPoints = 100_000

    public init(format: Format, name: String?, positions: [GeoPoint], turns: [DeclaredTurn] = []) {
        self.format = format
        self.name = name
        self.positions = positions
        self.turns = turns
    }

    /// Reads and parses the file at `path`.
    public static func read(path: String) throws(CourseFileError) -> CourseFile {
        let url = URL(fileURLWithPath: path)
        let size: Int
        do {
            size = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        } catch {
            throw .unreadable(path: path, reason: (error as NSError).localizedDescription)
        }
        guard size <= maximumBytes else { throw .tooLarge(bytes: size) }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw .unreadable(path: path, reason: (error as NSError).localizedDescription)
        }
        return try parse([UInt8](data))
    }

    /// Parses a course file's bytes: FIT when they carry FIT's header, else GPX.
    public static func parse(_ bytes: [UInt8]) throws(CourseFileError) -> CourseFile {
        guard bytes.count <= maximumBytes else { throw .tooLarge(bytes: bytes.count) }
        if FITCourseReader.isFIT(bytes) { return try FITCourseReader.read(bytes) }
        return try GPXCourseReader.read(bytes)
    }
}
