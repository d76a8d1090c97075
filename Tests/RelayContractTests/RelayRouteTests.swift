import Foundation
import RelayContract
import Testing

/// A route as the relay keeps it, and read back as a stranger's: the same checks as `share_route`.
@Suite struct RelayRouteTests {
    static let points = [
        RelayRoute.Point(latitude: 52.5, longitude: 13.4, elapsed: 0, distance: 0),
        RelayRoute.Point(latitude: 52.5009, longitude: 13.4, elapsed: 30, distance: 100.04),
        RelayRoute.Point(latitude: 52.5009, longitude: 13.4, elapsed: 60, distance: 100.04),
        RelayRoute.Point(latitude: 52.5018, longitude: 13.40001, elapsed: 90, distance: 200.1),
    ]

    @Test func pointsAreKeptInTheRelaysUnitsAndReadBack() throws {
        let route = try RelayRoute(points: Self.points)
        #expect(route.count == 4)
        #expect(route.latitudeE7 == [525_000_000, 525_009_000, 525_009_000, 525_018_000])
        #expect(route.elapsedDeciseconds == [0, 300, 600, 900])
        #expect(route.distanceDecimetres == [0, 1000, 1000, 2001])
        #expect(abs(route.points[3].longitude - 13.40001) < 1e-9)
        #expect(route.end.elapsed == 90)
        #expect(route.end.distance == 200.1)
    }

    @Test func theDistanceAtATimeFollowsTheRouteStandingWhereTheRunnerStood() throws {
        let route = try RelayRoute(points: Self.points)
        #expect(route.distance(at: -5) == 0)
        #expect(abs(route.distance(at: 15) - 50) < 1e-9)
        #expect(route.distance(at: 45) == 100)
        #expect(abs(route.distance(at: 75) - 150.05) < 1e-9)
        #expect(route.distance(at: 1000) == 200.1)
    }

    @Test(
        arguments: [
            ([1, 2], [1], [0, 1], [0, 1], "a route is four arrays of one length"),
            ([1], [1], [0], [0], "a route has 2 to 100000 points, not 1"),
            ([950_000_000, 1], [1, 1], [0, 1], [0, 1], "point 1: off the globe"),
            ([1, 1], [1, -1_900_000_000], [0, 1], [0, 1], "point 2: off the globe"),
            ([1, 1], [1, 1], [5, 4], [0, 1], "point 2: times and distances start at 0 and never go back"),
            ([1, 1], [1, 1], [0, 1], [5, 4], "point 2: times and distances start at 0 and never go back"),
            ([1, 1], [1, 1], [-1, 1], [0, 1], "point 1: times and distances start at 0 and never go back"),
        ] as [([Int32], [Int32], [Int32], [Int32], String)]
    )
    func aRouteTheRelayWouldRefuseIsRefusedWithItsReason(
        latitudes: [Int32],
        longitudes: [Int32],
        elapsed: [Int32],
        distances: [Int32],
        reason: String
    ) {
        #expect(throws: RelayRouteProblem.self) {
            try RelayRoute(validating: latitudes, longitudes, elapsed, distances)
        }
        do {
            _ = try RelayRoute(validating: latitudes, longitudes, elapsed, distances)
        } catch {
            #expect(error.description == reason)
        }
    }

    @Test func aRouteOverTheLimitIsRefused() {
        let many = [Int32](repeating: 0, count: 11)
        #expect(throws: RelayRouteProblem.shape("a route has 2 to 10 points, not 11")) {
            try RelayRoute(validating: many, many, many, many, maximumPoints: 10)
        }
    }

    @Test func aPositionOffTheGlobeOrATimeThatIsNoNumberIsRefused() {
        var points = Self.points
        points[1].latitude = .nan
        #expect(throws: RelayRouteProblem.point(2, "off the globe")) { try RelayRoute(points: points) }
        points = Self.points
        points[2].elapsed = .infinity
        #expect(throws: RelayRouteProblem.self) { try RelayRoute(points: points) }
    }

    @Test func itsJSONIsTheRelaysColumnsAndAStoredOneIsCheckedAgain() throws {
        let route = try RelayRoute(points: Self.points)
        let text = String(decoding: try JSONEncoder().encode(route), as: UTF8.self)
        for key in ["lat_e7", "lon_e7", "elapsed_ds", "distance_dm"] { #expect(text.contains("\"\(key)\"")) }
        #expect(try JSONDecoder().decode(RelayRoute.self, from: Data(text.utf8)) == route)
        let backwards = #"{"lat_e7":[1,1],"lon_e7":[1,1],"elapsed_ds":[3,2],"distance_dm":[0,1]}"#
        #expect(throws: RelayRouteProblem.self) {
            try JSONDecoder().decode(RelayRoute.self, from: Data(backwards.utf8))
        }
    }
}
