/// Why a course file could not be read: each says what to fix.
public enum CourseFileError: Error, Sendable, Equatable, CustomStringConvertible {
    case unreadable(path: String, reason: String)
    case tooLarge(bytes: Int)
    /// Neither FIT nor XML.
    case unknownFormat
    /// XML, but not GPX: its root element.
    case notGPX(root: String)
    case malformedXML(line: Int, reason: String)
    /// A point whose latitude or longitude is missing, not a number or out of range.
    case badPoint(line: Int, reason: String)
    case malformedFIT(offset: Int, reason: String)
    case badCRC(expected: UInt16, found: UInt16)
    case noPoints(CourseFile.Format)
    case tooManyPoints
    /// Its points do not make a course: fewer than two distinct ones.
    case tooShort

    public var description: String {
        switch self {
        case .unreadable(let path, let reason): "cannot read \(path): \(reason)"
        case .tooLarge(let bytes):
            "the file is \(bytes) bytes; a course file may have at most \(CourseFile.maximumBytes) bytes"
        case .unknownFormat: "not a course file: neither FIT nor GPX"
        case .notGPX(let root): "an XML file but not GPX: its root element is <\(root)>"
        case .malformedXML(let line, let reason): "not well-formed XML at line \(line): \(reason)"
        case .badPoint(let line, let reason): "a point at line \(line): \(reason)"
        case .malformedFIT(let offset, let reason): "a damaged FIT file at byte \(offset): \(reason)"
        case .badCRC(let expected, let found):
            "a damaged FIT file: its CRC is \(String(found, radix: 16)), its contents give \(String(expected, radix: 16))"
        case .noPoints(.gpx): "the GPX file has no track or route points"
        case .noPoints(.fit): "the FIT file has no positions"
        case .tooManyPoints: "the course has more than \(CourseFile.maximumPoints) points"
        case .tooShort: "the course needs two distinct points at least"
        }
    }
}
