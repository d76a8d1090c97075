import Foundation
import TrackCore

/// GPX 1.0 and 1.1: the track's points (all its segments, in order), or the route's where there is
/// no track; the name of the track, the route or the file's metadata. Read by `XMLScanner`: no
/// entity of a DTD is ever expanded, no external file ever read.
enum GPXCourseReader {
    static func read(_ bytes: [UInt8]) throws(CourseFileError) -> CourseFile {
        guard let first = bytes.first(where: { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }),
            first == UInt8(ascii: "<")
        else { throw .unknownFormat }
        var reader = Reader()
        var scanner = XMLScanner(bytes)
        do {
            try scanner.scan { event throws(XMLScanner.Failure) in try reader.take(event) }
        } catch {
            throw reader.failure ?? .malformedXML(line: error.line, reason: error.reason)
        }
        if let failure = reader.failure { throw failure }
        let positions = reader.track.isEmpty ? reader.route : reader.track
        guard !positions.isEmpty else { throw .noPoints(.gpx) }
        let name = reader.trackName ?? reader.routeName ?? reader.fileName
        return CourseFile(format: .gpx, name: name, positions: positions)
    }

    private struct Reader {
        var track: [GeoPoint] = []
        var route: [GeoPoint] = []
        var trackName: String?
        var routeName: String?
        var fileName: String?
        /// A failure of the GPX's own (not of its XML).
        var failure: CourseFileError?
        private var stack: [String] = []
        private var text = ""

        mutating func take(_ event: XMLScanner.Event) throws(XMLScanner.Failure) -> Bool {
            switch event {
            case .start(let element, let attributes, let line):
                if stack.isEmpty, element != "gpx" { return stop(.notGPX(root: String(element.prefix(40)))) }
                stack.append(element)
                text = ""
                guard element == "trkpt" || element == "rtept" else { return true }
                guard let point = point(attributes, line) else { return false }
                if element == "trkpt" { track.append(point) } else { route.append(point) }
                if track.count + route.count > CourseFile.maximumPoints { return stop(.tooManyPoints) }
            case .text(let string):
                if text.utf8.count < 1000 { text += string }
            case .end(let element):
                defer { if !stack.isEmpty { stack.removeLast() } }
                guard element == "name", stack.count >= 2 else { return true }
                let name = text.trimmingCharacters(in: .whitespacesAndNewlines)
                guard !name.isEmpty else { return true }
                switch stack[stack.count - 2] {
                case "trk": trackName = trackName ?? name
                case "rte": routeName = routeName ?? name
                case "metadata" where stack.count == 3: fileName = fileName ?? name
                default: break
                }
            }
            return true
        }

        private mutating func point(_ attributes: [String: String], _ line: Int) -> GeoPoint? {
            guard let lat = attributes["lat"], let lon = attributes["lon"] else {
                _ = stop(.badPoint(line: line, reason: "no lat or lon attribute"))
                return nil
            }
            guard let latitude = Double(lat.trimmingCharacters(in: .whitespaces)),
                let longitude = Double(lon.trimmingCharacters(in: .whitespaces)),
                latitude.isFinite, longitude.isFinite, abs(latitude) <= 90, abs(longitude) <= 180
            else {
                let shown = "lat \"\(lat.prefix(30))\", lon \"\(lon.prefix(30))\""
                _ = stop(.badPoint(line: line, reason: "\(shown) is not a position"))
                return nil
            }
            return GeoPoint(latitude: latitude, longitude: longitude)
        }

        /// Ends the reading with `error`.
        private mutating func stop(_ error: CourseFileError) -> Bool {
            if failure == nil { failure = error }
            return false
        }
    }
}
