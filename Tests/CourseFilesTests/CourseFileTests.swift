import Course
import CourseFiles
import FITFormat
import Foundation
import Harness
import Testing
import TrackCore

/// Course files written by other tools (gpxpy, fit-tool: `data/courses/make.py`) read into
/// courses; damaged and hostile files refused with a reason.
@Suite("Course files")
struct CourseFileTests {
    static let folder = recordings + "/courses/"
    static let start = GeoPoint(latitude: 48.2082, longitude: 16.3738)

    func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.folder + name)))
    }

    /// Metres between two positions, in a plane at the first.
    func metres(_ a: GeoPoint, _ b: GeoPoint) -> Double { LocalFrame(origin: a).project(b).length }

    @Test func aGPXTrackInTwoSegmentsIsOneCourseWithTheTurnsItsShapeShows() throws {
        let file = try CourseFile.read(path: Self.folder + "streets.gpx")
        #expect(file.format == .gpx && file.name == "Ring, four streets")
        #expect(file.positions.count == 322, "both segments, the shared point twice")
        #expect(metres(file.positions[0], Self.start) < 0.01)
        let course = try file.course(named: nil, fallback: "streets")
        #expect(course.name == "Ring, four streets")
        #expect(abs(course.length - 1600) < 0.5, "\(course.length)")
        #expect(course.turns.map(\.direction) == [.left, .right, .right])
        for (turn, at) in zip(course.turns, [500.0, 900, 1200]) { #expect(abs(turn.distance - at) < 5, "\(turn)") }
    }

    @Test func aGPXRouteOfCornersIsTheSameCourse() throws {
        let file = try CourseFile.read(path: Self.folder + "corners-route.gpx")
        #expect(file.format == .gpx && file.name == "Corners" && file.positions.count == 5)
        let course = try file.course(named: "My corners", fallback: "x")
        #expect(course.name == "My corners")
        #expect(abs(course.length - 1600) < 0.5)
        #expect(course.turns.map(\.direction) == [.left, .right, .right])
    }

    /// The FIT course's own turn points are its turns (the third declared sharp), placed where the
    /// course passes them; its water point and its start and end are not turns.
    @Test func aFITCourseKeepsItsNameAndDeclaredTurns() throws {
        let file = try CourseFile.read(path: Self.folder + "streets.fit")
        #expect(file.format == .fit && file.name == "Ring streets" && file.positions.count == 321)
        #expect(file.turns.map(\.direction) == [.left, .right, .sharpRight])
        let gpx = try CourseFile.read(path: Self.folder + "streets.gpx")
        // Semicircles keep a position to about a centimetre.
        for (a, b) in zip(file.positions, gpx.positions.prefix(161)) { #expect(metres(a, b) < 0.02) }
        let course = try file.course(named: nil, fallback: "x")
        #expect(abs(course.length - 1600) < 0.5)
        #expect(course.turns.map(\.direction) == [.left, .right, .sharpRight])
        for (turn, at) in zip(course.turns, [500.0, 900, 1200]) { #expect(abs(turn.distance - at) < 0.5, "\(turn)") }
    }

    @Test func aDamagedFITFileIsRefusedWithWhereAndWhy() throws {
        let good = try bytes("streets.fit")
        var flipped = good
        flipped[400] ^= 0x40
        #expect(throws: CourseFileError.self) { try CourseFile.parse(flipped) }
        do {
            _ = try CourseFile.parse(flipped)
        } catch {
            guard case .badCRC = error else {
                Issue.record("\(error)")
                return
            }
        }
        let cut = Array(good.prefix(3000))
        #expect(
            throws: CourseFileError.malformedFIT(
                offset: 4,
                reason: "its header says \(good.count - 14) bytes of records; the file is shorter"
            )
        ) {
            try CourseFile.parse(cut)
        }
        // A message whose definition never came, with a valid CRC.
        var orphan: [UInt8] = [14, 0x20, 0x08, 0x52, 1, 0, 0, 0] + Array(".FIT".utf8) + [0, 0, 0x05]
        var crc = FITCRC()
        crc.add(orphan)
        orphan += [UInt8(crc.value & 0xFF), UInt8(crc.value >> 8)]
        #expect(
            throws: CourseFileError.malformedFIT(offset: 14, reason: "a message of local type 5 before its definition")
        ) {
            try CourseFile.parse(orphan)
        }
    }

    @Test(arguments: [
        ("<kml><Document/></kml>", "an XML file but not GPX: its root element is <kml>"),
        (
            "<gpx><trk><trkseg><trkpt lat=\"48.2\" lon=\"east\"/></trkseg></trk></gpx>",
            "a point at line 1: lat \"48.2\", lon \"east\" is not a position"
        ),
        (
            "<gpx><trk><trkseg><trkpt lat=\"91\" lon=\"16\"/></trkseg></trk></gpx>",
            "a point at line 1: lat \"91\", lon \"16\" is not a position"
        ),
        ("<gpx><rte><rtept lat=\"48.2\"/></rte></gpx>", "a point at line 1: no lat or lon attribute"),
        ("<gpx><wpt lat=\"48.2\" lon=\"16.3\"/></gpx>", "the GPX file has no track or route points"),
        ("<gpx><trk><trkseg><trkpt lat=\"48.2\" lon=\"16.3\"></trkseg></gpx>", "not well-formed XML at line 1"),
        ("{\"type\": \"FeatureCollection\"}", "not a course file: neither FIT nor GPX"),
    ])
    func aFileThatIsNotACourseSaysWhy(text: String, said: String) {
        do {
            _ = try CourseFile.parse(Array(text.utf8))
            Issue.record("accepted: \(text)")
        } catch {
            #expect(error.description.hasPrefix(said), "\(error.description)")
        }
    }

    /// XML as GPX writers write it: a prefixed namespace, single quotes, comments, a processing
    /// instruction, CDATA, XML's entities and character references in a name.
    @Test func theXMLOfOtherWritersIsRead() throws {
        let text = """
            <?xml version='1.0' encoding='UTF-8'?>
            <!-- exported -->
            <g:gpx xmlns:g="http://www.topografix.com/GPX/1/1" version="1.1">
              <g:trk><g:name>Caf&#233; &amp; <![CDATA[Park <loop>]]> &#x2013; 5&lt;6</g:name>
                <g:trkseg>
                  <g:trkpt lat='48.2000' lon='16.3000'><?garmin x?></g:trkpt>
                  <g:trkpt lat="48.2010" lon="16.3000"/>
                </g:trkseg>
              </g:trk>
            </g:gpx>
            """
        let file = try CourseFile.parse(Array(text.utf8))
        #expect(file.name == "Café & Park <loop> – 5<6" && file.positions.count == 2)
    }

    @Test(arguments: [
        ("<gpx><trk></gpx>", "not well-formed XML at line 1: </gpx> does not close <trk>"),
        ("<gpx></gpx><gpx></gpx>", "not well-formed XML at line 1: a second root element"),
        ("<gpx><trk><name>a &nbsp; b</name></trk></gpx>", "not well-formed XML at line 1: &nbsp; is not an entity"),
        ("<gpx>\n<trk>\n<trkseg>\n<trkpt lat=\"48.2\" lon=16.3/>", "not well-formed XML at line 4: the value of lon"),
        ("<gpx><trk>", "not well-formed XML at line 1: <trk> is not closed at the end of the file"),
        ("<gpx><!-- never closed", "not well-formed XML at line 1: a comment is not closed"),
    ])
    func malformedXMLSaysWhereAndWhy(text: String, said: String) {
        do {
            _ = try CourseFile.parse(Array(text.utf8))
            Issue.record("accepted: \(text)")
        } catch {
            #expect(error.description.hasPrefix(said), "\(error.description)")
        }
    }

    /// An entity that would read a local file is not resolved; a course of one point, or of one
    /// point repeated, is not a course; a name is one line of at most 64 characters.
    @Test func hostileAndDegenerateFiles() throws {
        let secret = try temporaryDirectory("course") + "/secret"
        try "48.5".write(toFile: secret, atomically: true, encoding: .utf8)
        let entity = """
            <?xml version="1.0"?><!DOCTYPE gpx [<!ENTITY s SYSTEM "file://\(secret)">]>
            <gpx><trk><name>&s;</name><trkseg><trkpt lat="48.2" lon="16.3"/><trkpt lat="48.21" lon="16.3"/></trkseg></trk></gpx>
            """
        // A DTD's entities are never expanded: the file is refused, naming the entity.
        #expect(
            throws: CourseFileError.malformedXML(
                line: 2,
                reason: "&s; is not an entity of XML's (a DTD's are not expanded)"
            )
        ) {
            try CourseFile.parse(Array(entity.utf8))
        }
        let one = try CourseFile.parse(
            Array("<gpx><rte><rtept lat=\"48.2\" lon=\"16.3\"/><rtept lat=\"48.2\" lon=\"16.3\"/></rte></gpx>".utf8)
        )
        #expect(throws: CourseFileError.tooShort) { try one.course(named: nil, fallback: "x") }
        let named = try CourseFile.parse(
            Array(
                "<gpx><trk><name>Evening\n\u{9B}31mloop\u{202E}</name><trkseg><trkpt lat=\"48.2\" lon=\"16.3\"/><trkpt lat=\"48.21\" lon=\"16.3\"/></trkseg></trk></gpx>"
                    .utf8
            )
        )
        #expect(try named.course(named: nil, fallback: "x").name == "Evening 31mloop")
        #expect(try named.course(named: String(repeating: "é", count: 100), fallback: "x").name.count == 64)
        #expect(throws: CourseFileError.tooLarge(bytes: CourseFile.maximumBytes + 1)) {
            try CourseFile.parse([UInt8](repeating: 0x20, count: CourseFile.maximumBytes + 1))
        }
    }
}
