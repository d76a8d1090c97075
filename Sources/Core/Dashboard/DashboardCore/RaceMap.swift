import Course
import PhoneRaceCore
import RelayContract
import TrackCore
import XMLEscaping

/// Both runners' routes of a race on one SVG: each route drawn in metres east and north of a
/// shared origin (no tiles, no projection of the page's own), the start, each runner's end, every
/// change of the lead marked where the new leader was, and each runner's distance, time and pace;
/// a race on a course has the course drawn under the routes. The same routes always give the same
/// bytes. Pure.
public struct RaceMap: Sendable {
    /// One runner as the map shows them.
    public struct Runner: Sendable, Equatable {
        public var name: String
        public var route: RelayRoute?
        /// Their final distance (m) and time (s), or the route's end when the relay gave none.
        public var distance: Double?
        public var elapsed: Double?

        public init(name: String, route: RelayRoute?, distance: Double?, elapsed: Double?) {
            self.name = name
            self.route = route
            self.distance = distance ?? route?.end.distance
            self.elapsed = elapsed ?? route?.end.elapsed
        }
    }

    public static let width = 640.0
    public static let height = 480.0
    static let margin = 24.0
    /// Room under the map for the runners' figures and the lead changes.
    static let legend = 84.0

    public let mine: Runner
    public let partner: Runner
    /// The lead's changes, judged from both routes; empty unless both are held.
    public let changes: [RouteComparison.LeadChange]
    /// The race's course, when it ran on one and this phone still keeps it.
    public let course: Course?

    public init(mine: Runner, partner: Runner, course: Course? = nil) {
        self.mine = mine
        self.partner = partner
        self.course = course
        if let own = mine.route, let theirs = partner.route {
            changes = RouteComparison(mine: own, partner: theirs).changes
        } else {
            changes = []
        }
    }

    /// The SVG document.
    public var svg: String {
        let routes = [mine.route, partner.route].compactMap { $0 }
        let origin =
            routes.first?.points.first.map { GeoPoint(latitude: $0.latitude, longitude: $0.longitude) }
            ?? course?.points.first?.position
        var out = """
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \(Self.number(Self.width)) \
            \(Self.number(Self.height))" width="\(Self.number(Self.width))" height="\(Self.number(Self.height))" \
            role="img" data-changes="\(changes.count)">
            <title>\(XMLText.escaped("\(mine.name) and \(partner.name)"))</title>
            \(Self.style)
            <rect class="ground" width="100%" height="100%"/>

            """
        guard let origin else {
            out += "<text x=\"\(Self.margin)\" y=\"40\">no route shared yet</text>\n"
            return out + legendText() + "</svg>\n"
        }
        let frame = LocalFrame(origin: origin)
        func project(_ route: RelayRoute) -> [LocalPoint] {
            route.points.map { frame.project(GeoPoint(latitude: $0.latitude, longitude: $0.longitude)) }
        }
        let courseLine = course?.points.map { frame.project($0.position) } ?? []
        let local = routes.flatMap(project) + courseLine
        let minEast = local.map(\.east).min() ?? 0
        let maxEast = local.map(\.east).max() ?? 0
        let minNorth = local.map(\.north).min() ?? 0
        let maxNorth = local.map(\.north).max() ?? 0
        let spanWidth = Self.width - 2 * Self.margin
        let spanHeight = Self.height - 2 * Self.margin - Self.legend
        let scale = min(spanWidth / max(maxEast - minEast, 1), spanHeight / max(maxNorth - minNorth, 1))
        let offsetX = Self.margin + (spanWidth - (maxEast - minEast) * scale) / 2
        let offsetY = Self.margin + (spanHeight - (maxNorth - minNorth) * scale) / 2
        func screen(_ p: LocalPoint) -> (x: Double, y: Double) {
            (offsetX + (p.east - minEast) * scale, offsetY + (maxNorth - p.north) * scale)
        }
        func place(_ latitude: Double, _ longitude: Double) -> (x: Double, y: Double) {
            screen(frame.project(GeoPoint(latitude: latitude, longitude: longitude)))
        }
        if let course { out += Self.polyline(courseLine.map(screen), class: "course", data: ("course", course.name)) }
        for (runner, side) in [(mine, "mine"), (partner, "partner")] {
            guard let route = runner.route else { continue }
            let points = project(route).map(screen)
            out += Self.polyline(points, class: "route \(side)", data: ("runner", runner.name))
            if let end = points.last {
                out +=
                    "<circle class=\"end \(side)\" cx=\"\(Self.number(end.x))\" cy=\"\(Self.number(end.y))\" r=\"5\"/>\n"
            }
        }
        if let first = routes.first?.points.first {
            let start = place(first.latitude, first.longitude)
            out += "<circle class=\"start\" cx=\"\(Self.number(start.x))\" cy=\"\(Self.number(start.y))\" r=\"6\"/>\n"
        }
        for change in changes {
            let leader = change.leader == .mine ? mine : partner
            guard let route = leader.route, let at = Self.position(route, at: change.elapsed) else { continue }
            let p = place(at.latitude, at.longitude)
            out += "<circle class=\"lead \(change.leader == .mine ? "mine" : "partner")\" "
            out += "cx=\"\(Self.number(p.x))\" cy=\"\(Self.number(p.y))\" r=\"7\" "
            out += "data-elapsed=\"\(Self.number(change.elapsed))\" data-distance=\"\(Self.number(change.distance))\">"
            out += "<title>\(XMLText.escaped(line(change)))</title></circle>\n"
        }
        return out + legendText() + "</svg>\n"
    }

    /// The map is shown as an image, which takes no styles from the page: its own, in the page's
    /// colours (this runner the accent, the partner amber), light and dark.
    static let style = """
        <style>
        .ground { fill: #fff; } text { fill: #000; font: 13px system-ui, sans-serif; }
        polyline { fill: none; stroke-linejoin: round; stroke-linecap: round; }
        .course { stroke: #888; stroke-opacity: .35; stroke-width: 12; }
        .route { stroke-width: 3; } .route.mine { stroke: #0b57d0; } .route.partner { stroke: #a86400; }
        .end.mine, .figures.mine { fill: #0b57d0; } .end.partner, .figures.partner { fill: #a86400; }
        .start { fill: #0a7a22; } .lead { fill: none; stroke-width: 2.5; }
        .lead.mine { stroke: #0b57d0; } .lead.partner { stroke: #a86400; }
        @media (prefers-color-scheme: dark) {
          .ground { fill: #000; } text { fill: #fff; } .route.mine, .lead.mine { stroke: #8ab4f8; }
          .end.mine, .figures.mine { fill: #8ab4f8; } .route.partner, .lead.partner { stroke: #ffb340; }
          .end.partner, .figures.partner { fill: #ffb340; } .start { fill: #4cdb6b; } .course { stroke: #bbb; }
        }
        </style>
        """

    /// A line through screen points: its class, the `data-` attribute naming what it draws, and its
    /// number of points.
    static func polyline(_ points: [(x: Double, y: Double)], class name: String, data: (String, String)) -> String {
        let text = points.map { "\(number($0.x)),\(number($0.y))" }.joined(separator: " ")
        return "<polyline class=\"\(name)\" data-\(data.0)=\"\(XMLText.escaped(data.1))\" "
            + "data-points=\"\(points.count)\" points=\"\(text)\"/>\n"
    }

    /// The figures' lines and the lead's changes, under the map.
    private func legendText() -> String {
        var out = ""
        var y = Self.height - Self.legend + 16
        for (runner, side) in [(mine, "mine"), (partner, "partner")] {
            out += "<text class=\"figures \(side)\" x=\"\(Self.number(Self.margin))\" y=\"\(Self.number(y))\" "
            out += "data-runner=\"\(XMLText.escaped(runner.name))\">\(XMLText.escaped(figures(runner)))</text>\n"
            y += 20
        }
        var leads = changes.isEmpty ? "no change of the lead" : changes.map(line).joined(separator: "; ")
        if let course { leads = "along \(course.name) (\(Self.kilometres(course.length))): " + leads }
        out += "<text class=\"leads\" x=\"\(Self.number(Self.margin))\" y=\"\(Self.number(y))\">"
        out += "\(XMLText.escaped(leads))</text>\n"
        return out
    }

    private func figures(_ runner: Runner) -> String {
        guard let distance = runner.distance, let elapsed = runner.elapsed else {
            return "\(runner.name): no figures yet"
        }
        var text = "\(runner.name): \(Self.kilometres(distance)) in \(Self.clock(elapsed))"
        if distance >= 10 { text += ", \(Self.clock(elapsed / distance * 1000)) /km" }
        if runner.route == nil { text += " (no route shared)" }
        return text
    }

    private func line(_ change: RouteComparison.LeadChange) -> String {
        let who = change.leader == .mine ? mine.name : partner.name
        return "\(who) led from \(Self.kilometres(change.distance)) (\(Self.clock(change.elapsed)))"
    }

    /// Where a route was at `elapsed` s, between its points by time.
    static func position(_ route: RelayRoute, at elapsed: Double) -> (latitude: Double, longitude: Double)? {
        let points = route.points
        guard let first = points.first else { return nil }
        guard elapsed > first.elapsed else { return (first.latitude, first.longitude) }
        for (a, b) in zip(points, points.dropFirst()) where b.elapsed >= elapsed {
            let share = b.elapsed > a.elapsed ? (elapsed - a.elapsed) / (b.elapsed - a.elapsed) : 1
            return (a.latitude + (b.latitude - a.latitude) * share, a.longitude + (b.longitude - a.longitude) * share)
        }
        return points.last.map { ($0.latitude, $0.longitude) }
    }

    static func kilometres(_ metres: Double) -> String {
        let hundredths = Int((metres / 10).rounded())
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction) km"
    }

    static func clock(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded())
        let hours = whole / 3600
        let minutes = (whole / 60) % 60
        let rest = whole % 60
        let mmss = "\(minutes < 10 && hours > 0 ? "0" : "")\(minutes):\(rest < 10 ? "0" : "")\(rest)"
        return hours > 0 ? "\(hours):\(mmss)" : mmss
    }

    /// A coordinate with one decimal, as the page's track has it.
    static func number(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        let sign = tenths < 0 ? "-" : ""
        return "\(sign)\(abs(tenths) / 10).\(abs(tenths) % 10)"
    }
}
