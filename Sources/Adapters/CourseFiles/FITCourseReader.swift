import Course
import FITFormat
import TrackCore

/// A FIT file's positions as a course: the records' positions in order, the course message's name,
/// and the course points that are turns. Checked against its CRCs; every length read is checked
/// against the bytes that are there.
enum FITCourseReader {
    /// The first bytes of a FIT file: a header of 12 or 14 bytes with ".FIT" at 8.
    static func isFIT(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 12 && (bytes[0] == 12 || bytes[0] == 14) && Array(bytes[8..<12]) == Array(".FIT".utf8)
    }

    private struct Field {
        var number: UInt8
        var size: Int
    }

    private struct Definition {
        var global: UInt16
        var bigEndian: Bool
        var fields: [Field]
        /// Developer fields' bytes after the fields: skipped.
        var developerBytes: Int
    }

    private enum Message {
        static let course: UInt16 = 31
        static let coursePoint: UInt16 = 32
        static let record: UInt16 = 20
    }

    static func read(_ bytes: [UInt8]) throws(CourseFileError) -> CourseFile {
        let headerSize = Int(bytes[0])
        let dataSize = Int(UInt32(bytes[4]) | UInt32(bytes[5]) << 8 | UInt32(bytes[6]) << 16 | UInt32(bytes[7]) << 24)
        let end = headerSize + dataSize
        guard end + 2 <= bytes.count else {
            throw .malformedFIT(offset: 4, reason: "its header says \(dataSize) bytes of records; the file is shorter")
        }
        if headerSize == 14 {
            let stated = UInt16(bytes[12]) | UInt16(bytes[13]) << 8
            var crc = FITCRC()
            crc.add(bytes[0..<12])
            if stated != 0, stated != crc.value { throw .badCRC(expected: crc.value, found: stated) }
        }
        var crc = FITCRC()
        crc.add(bytes[0..<end])
        let stated = UInt16(bytes[end]) | UInt16(bytes[end + 1]) << 8
        guard stated == crc.value else { throw .badCRC(expected: crc.value, found: stated) }

        var definitions: [UInt8: Definition] = [:]
        var positions: [GeoPoint] = []
        var turns: [CourseFile.DeclaredTurn] = []
        var name: String?
        var offset = headerSize
        func need(_ count: Int, _ what: String) throws(CourseFileError) {
            guard offset + count <= end else {
                throw .malformedFIT(offset: offset, reason: "\(what) runs past the records' end")
            }
        }
        while offset < end {
            let header = bytes[offset]
            offset += 1
            if header & 0x80 == 0, header & 0x40 != 0 {
                try need(5, "a definition")
                let bigEndian = bytes[offset + 1] == 1
                let global =
                    bigEndian
                    ? UInt16(bytes[offset + 2]) << 8 | UInt16(bytes[offset + 3])
                    : UInt16(bytes[offset + 2]) | UInt16(bytes[offset + 3]) << 8
                let count = Int(bytes[offset + 4])
                offset += 5
                try need(3 * count, "a definition's fields")
                let fields = (0..<count).map {
                    Field(number: bytes[offset + 3 * $0], size: Int(bytes[offset + 3 * $0 + 1]))
                }
                offset += 3 * count
                var developerBytes = 0
                if header & 0x20 != 0 {
                    try need(1, "a definition's developer fields")
                    let developer = Int(bytes[offset])
                    offset += 1
                    try need(3 * developer, "a definition's developer fields")
                    developerBytes = (0..<developer).reduce(0) { $0 + Int(bytes[offset + 3 * $1 + 1]) }
                    offset += 3 * developer
                }
                definitions[header & 0x0F] = Definition(
                    global: global,
                    bigEndian: bigEndian,
                    fields: fields,
                    developerBytes: developerBytes
                )
                continue
            }
            // A data message, with a normal header or a compressed timestamp's.
            let local = header & 0x80 != 0 ? (header >> 5) & 0x03 : header & 0x0F
            guard let definition = definitions[local] else {
                throw .malformedFIT(
                    offset: offset - 1,
                    reason: "a message of local type \(local) before its definition"
                )
            }
            let size = definition.fields.reduce(0) { $0 + $1.size } + definition.developerBytes
            try need(size, "a message")
            var values: [UInt8: ArraySlice<UInt8>] = [:]
            var at = offset
            for field in definition.fields {
                values[field.number] = bytes[at..<(at + field.size)]
                at += field.size
            }
            offset += size
            func sint32(_ number: UInt8) -> Int32? {
                guard let raw = values[number], raw.count == 4 else { return nil }
                let b = Array(raw)
                let value =
                    definition.bigEndian
                    ? UInt32(b[0]) << 24 | UInt32(b[1]) << 16 | UInt32(b[2]) << 8 | UInt32(b[3])
                    : UInt32(b[0]) | UInt32(b[1]) << 8 | UInt32(b[2]) << 16 | UInt32(b[3]) << 24
                return value == 0x7FFF_FFFF ? nil : Int32(bitPattern: value)
            }
            func position(_ lat: UInt8, _ lon: UInt8) -> GeoPoint? {
                guard let latitude = sint32(lat), let longitude = sint32(lon) else { return nil }
                let point = GeoPoint(latitude: degrees(latitude), longitude: degrees(longitude))
                return point.isPlausible ? point : nil
            }
            switch definition.global {
            case Message.record:
                if let point = position(0, 1) {
                    positions.append(point)
                    guard positions.count <= CourseFile.maximumPoints else { throw .tooManyPoints }
                }
            case Message.coursePoint:
                if let point = position(2, 3), let raw = values[5]?.first, let direction = direction(raw) {
                    turns.append(CourseFile.DeclaredTurn(position: point, direction: direction))
                }
            case Message.course:
                if let raw = values[5] {
                    let text = String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
                    if !text.isEmpty { name = text }
                }
            default: break
            }
        }
        guard !positions.isEmpty else { throw .noPoints(.fit) }
        return CourseFile(format: .fit, name: name, positions: positions, turns: turns)
    }

    /// Semicircles (2³¹ to 180°) to degrees.
    static func degrees(_ semicircles: Int32) -> Double { Double(semicircles) * 180 / 2_147_483_648 }

    /// The course point types that are turns (FIT profile `course_point`).
    static func direction(_ type: UInt8) -> TurnDirection? {
        switch type {
        case 6, 16, 19: .left
        case 7, 17, 21: .right
        case 20: .sharpLeft
        case 22: .sharpRight
        case 23: .uTurn
        default: nil
        }
    }
}
