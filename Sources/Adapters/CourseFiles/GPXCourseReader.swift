import Foundation
import TrackCore

#if canImport(FoundationXML)
import FoundationXML
#endif

/// GPX 1.0 and 1.1: the track's points (all its segments, in order), or the route's where there is
/// no track; the name of the track, the route or the file's metadata. External entities are never
/// resolved.
enum GPXCourseReader {
    static func read(_ bytes: [UInt8]) throws(CourseFileError) -> CourseFile {
        guard let first = bytes.first(where: { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }),
            first == UInt8(ascii: "<")
        else { throw .unknownFormat }
        let parser = XMLParser(data: Data(bytes))
        parser.shouldProcessNamespaces = true
        parser.shouldResolveExternalEntities = false
        let reader = Reader()
        parser.delegate = reader
        let parsed = parser.parse()
        if let failure = reader.failure { throw failure }
        guard parsed else {
            let reason = parser.parserError.map { ($0 as NSError).localizedDescription } ?? "unknown error"
            throw .malformedXML(line: parser.lineNumber, reason: reason)
        }
        let positions = reader.track.isEmpty ? reader.route : reader.track
        guard !positions.isEmpty else { throw .noPoints(.gpx) }
        let name = reader.trackName ?? reader.routeName ?? reader.fileName
        return CourseFile(format: .gpx, name: name, positions: positions)
    }

    private final class Reader: NSObject, XMLParserDelegate {
        var track: [GeoPoint] = []
        var route: [GeoPoint] = []
        var trackName: String?
        var routeName: String?
        var fileName: String?
        var failure: CourseFileError?
        private var stack: [String] = []
        private var text = ""

        func parser(
            _ parser: XMLParser,
            didStartElement element: String,
            namespaceURI: String?,
            qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            if stack.isEmpty, element != "gpx" {
                stop(parser, .notGPX(root: String(element.prefix(40))))
                return
            }
            stack.append(element)
            text = ""
            guard element == "trkpt" || element == "rtept" else { return }
            guard let point = point(attributes, parser) else { return }
            if element == "trkpt" { track.append(point) } else { route.append(point) }
            if track.count + route.count > CourseFile.maximumPoints { stop(parser, .tooManyPoints) }
        }

        func parser(_ parser: XMLParser, parseErrorOccurred error: any Error) {
            if failure == nil {
                failure = .malformedXML(line: parser.lineNumber, reason: (error as NSError).localizedDescription)
            }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            if text.utf8.count < 1000 { text += string }
        }

        func parser(
            _ parser: XMLParser,
            didEndElement element: String,
            namespaceURI: String?,
            qualifiedName: String?
        ) {
            defer { if !stack.isEmpty { stack.removeLast() } }
            guard element == "name", stack.count >= 2 else { return }
            let name = text.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !name.isEmpty else { return }
            switch stack[stack.count - 2] {
            case "trk": trackName = trackName ?? name
            case "rte": routeName = routeName ?? name
            case "metadata" where stack.count == 3: fileName = fileName ?? name
            default: break
            }
        }

        private func point(_ attributes: [String: String], _ parser: XMLParser) -> GeoPoint? {
            guard let lat = attributes["lat"], let lon = attributes["lon"] else {
                stop(parser, .badPoint(line: parser.lineNumber, reason: "no lat or lon attribute"))
                return nil
            }
            guard let latitude = Double(lat.trimmingCharacters(in: .whitespaces)),
                let longitude = Double(lon.trimmingCharacters(in: .whitespaces)),
                latitude.isFinite, longitude.isFinite, abs(latitude) <= 90, abs(longitude) <= 180
            else {
                let shown = "lat \"\(lat.prefix(30))\", lon \"\(lon.prefix(30))\""
                stop(parser, .badPoint(line: parser.lineNumber, reason: "\(shown) is not a position"))
                return nil
            }
            return GeoPoint(latitude: latitude, longitude: longitude)
        }

        private func stop(_ parser: XMLParser, _ error: CourseFileError) {
            if failure == nil { failure = error }
            parser.abortParsing()
        }
    }
}
