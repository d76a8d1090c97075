import Course
import DashboardCore
import Foundation
import RelayContract
import Testing
import TrackCore

#if canImport(FoundationXML)
import FoundationXML
#endif

/// Both routes of a race on one SVG, read back by Foundation's XML parser.
@Suite struct RaceMapTests {
    /// A route north from (52.5, 13.4 + `east`°) at `speed` m/s for `seconds`, a point every 10 s.
    static func route(
        speed: Double,
        seconds: Int,
        east: Double = 0,
        faster: (after: Int, speed: Double)? = nil
    )
        throws -> RelayRoute
    {
        var distance = 0.0
        var points: [RelayRoute.Point] = []
        for second in stride(from: 0, through: seconds, by: 10) {
            points.append(
                .init(
                    latitude: 52.5 + distance / 111_320,
                    longitude: 13.4 + east,
                    elapsed: Double(second),
                    distance: distance
                )
            )
            distance += 10 * (faster.map { second >= $0.after ? $0.speed : speed } ?? speed)
        }
        return try RelayRoute(points: points)
    }

    /// The SVG's elements with their attributes, in order.
    final class Elements: NSObject, XMLParserDelegate {
        var found: [(name: String, attributes: [String: String])] = []
        var text = ""
        func parser(
            _ parser: XMLParser,
            didStartElement name: String,
            namespaceURI: String?,
            qualifiedName: String?,
            attributes: [String: String]
        ) {
            found.append((name, attributes))
        }
        func parser(_ parser: XMLParser, foundCharacters string: String) { text += string + "|" }
    }

    func parse(_ svg: String) throws -> Elements {
        let parser = XMLParser(data: Data(svg.utf8))
        let elements = Elements()
        parser.delegate = elements
        #expect(parser.parse(), "the map is well-formed XML: \(parser.parserError.map { "\($0)" } ?? "")")
        return elements
    }

    @Test func bothRoutesTheirEndsTheStartAndTheLeadsChangesWithEachRunnersFigures() throws {
        let alice = try Self.route(speed: 3, seconds: 600)
        let bob = try Self.route(speed: 2.8, seconds: 600, east: 0.0002, faster: (after: 300, speed: 3.6))
        let map = RaceMap(
            mine: .init(name: "alice", route: alice, distance: 1800, elapsed: 600),
            partner: .init(name: "bob", route: bob, distance: nil, elapsed: nil)
        )
        #expect(map.changes.map(\.leader) == [.mine, .partner])
        let svg = try parse(map.svg)
        let lines = svg.found.filter { $0.name == "polyline" }
        #expect(lines.map { $0.attributes["data-runner"] } == ["alice", "bob"])
        #expect(lines.map { $0.attributes["data-points"] } == ["\(alice.count)", "\(bob.count)"])
        #expect(lines.allSatisfy { ($0.attributes["points"] ?? "").split(separator: " ").count >= 2 })
        let leads = svg.found.filter { $0.attributes["class"]?.hasPrefix("lead ") == true }
        #expect(leads.count == 2)
        #expect(svg.found.first?.attributes["data-changes"] == "2")
        #expect(svg.found.contains { $0.attributes["class"] == "start" })
        #expect(svg.found.filter { $0.attributes["class"]?.hasPrefix("end ") == true }.count == 2)
        #expect(svg.text.contains("alice: 1.80 km in 10:00, 5:33 /km"), "\(svg.text)")
        let bobEnd = bob.end
        #expect(svg.text.contains("bob: \(bobEnd.distance == 1920 ? "1.92" : "?") km in 10:00"), "\(svg.text)")
        #expect(svg.text.contains("bob led from"), "\(svg.text)")
        // Every point lies within the drawing.
        for line in lines {
            for pair in (line.attributes["points"] ?? "").split(separator: " ") {
                let xy = pair.split(separator: ",").compactMap { Double($0) }
                #expect(xy.count == 2 && (0...RaceMap.width).contains(xy[0]) && (0...RaceMap.height).contains(xy[1]))
            }
        }
        #expect(map.svg == map.svg, "the same routes, the same bytes")
    }

    @Test func withoutThePartnersRouteTheirFiguresStandAloneAndNoLeadIsJudged() throws {
        let alice = try Self.route(speed: 3, seconds: 300)
        let map = RaceMap(
            mine: .init(name: "alice", route: alice, distance: nil, elapsed: nil),
            partner: .init(name: "bob", route: nil, distance: 880, elapsed: 301)
        )
        let svg = try parse(map.svg)
        #expect(svg.found.filter { $0.name == "polyline" }.count == 1)
        #expect(svg.text.contains("bob: 0.88 km in 5:01, 5:42 /km (no route shared)"), "\(svg.text)")
        #expect(svg.text.contains("no change of the lead"))
        let none = try parse(
            RaceMap(
                mine: .init(name: "alice", route: nil, distance: nil, elapsed: nil),
                partner: .init(name: "bob", route: nil, distance: nil, elapsed: nil)
            ).svg
        )
        #expect(none.text.contains("no route shared yet"))
        #expect(none.text.contains("alice: no figures yet"))
    }

    @Test func aRaceOnACourseHasTheCourseUnderTheRoutesAndInTheLegend() throws {
        let alice = try Self.route(speed: 3, seconds: 300)
        let bob = try Self.route(speed: 2.8, seconds: 300, east: 0.0002)
        // The course: north 900 m, then east 200 m (wider than either route).
        let corner = GeoPoint(latitude: 52.5 + 900 / 111_320, longitude: 13.4)
        let positions = [
            GeoPoint(latitude: 52.5, longitude: 13.4), corner, GeoPoint(latitude: corner.latitude, longitude: 13.403),
        ]
        let course = try #require(Course(name: "Ring <1>", positions: positions))
        let map = RaceMap(
            mine: .init(name: "alice", route: alice, distance: nil, elapsed: nil),
            partner: .init(name: "bob", route: bob, distance: nil, elapsed: nil),
            course: course
        )
        let svg = try parse(map.svg)
        let lines = svg.found.filter { $0.name == "polyline" }
        #expect(lines.map { $0.attributes["class"] } == ["course", "route mine", "route partner"], "under the routes")
        #expect(lines.first?.attributes["data-course"] == "Ring <1>" && lines.first?.attributes["data-points"] == "3")
        // (The parser hands an escaped name over in pieces.)
        let legend = svg.text.replacingOccurrences(of: "|", with: "")
        #expect(legend.contains("along Ring <1> (1.10 km): alice led from"), "\(legend)")
        // The course's corner is drawn, and everything stays within the drawing.
        for line in lines {
            for pair in (line.attributes["points"] ?? "").split(separator: " ") {
                let xy = pair.split(separator: ",").compactMap { Double($0) }
                #expect(xy.count == 2 && (0...RaceMap.width).contains(xy[0]) && (0...RaceMap.height).contains(xy[1]))
            }
        }
        // Without the routes, the course alone is still drawn.
        let alone = try parse(
            RaceMap(
                mine: .init(name: "alice", route: nil, distance: nil, elapsed: nil),
                partner: .init(name: "bob", route: nil, distance: nil, elapsed: nil),
                course: course
            ).svg
        )
        #expect(alone.found.filter { $0.name == "polyline" }.map { $0.attributes["class"] } == ["course"])
        // Shown as an image, the map takes no styles from the page: it carries its own, so a line is
        // a line and not a filled shape.
        #expect(svg.found.contains { $0.name == "style" } && map.svg.contains("polyline { fill: none;"))
        if let out = ProcessInfo.processInfo.environment["RACE_MAP_SVG"] {
            try map.svg.write(toFile: out, atomically: true, encoding: .utf8)
        }
    }

    @Test func namesAreTextNeverMarkup() throws {
        let map = RaceMap(
            mine: .init(
                name: "a<script>&\"",
                route: try Self.route(speed: 3, seconds: 60),
                distance: nil,
                elapsed: nil
            ),
            partner: .init(name: "b", route: nil, distance: nil, elapsed: nil)
        )
        let svg = try parse(map.svg)
        #expect(!svg.found.contains { $0.name == "script" })
        #expect(svg.found.first { $0.name == "polyline" }?.attributes["data-runner"] == "a<script>&\"")
    }
}
