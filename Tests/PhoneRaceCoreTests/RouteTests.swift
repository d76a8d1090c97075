import PhoneRaceCore
import RelayContract
import Testing
import TrackCore

/// A runner's route made small enough to share, and two routes compared for the lead.
@Suite struct RouteTests {
    /// A run of `seconds` at 1 Hz from `startAt`: north at `speed` m/s, with a stop of `standing` s
    /// from `stopAt`, and a gentle zigzag of `wiggle` metres every 20 s.
    static func run(
        seconds: Int,
        speed: Double = 3,
        stopAt: Int = .max,
        standing: Int = 0,
        wiggle: Double = 0,
        startAt: Double = 1_795_000_000
    ) -> [RouteBuilder.Fix] {
        var distance = 0.0
        var fixes: [RouteBuilder.Fix] = []
        for second in 0...seconds {
            if second > 0, !(stopAt..<(stopAt + standing)).contains(second) { distance += speed }
            let east = wiggle * (((second / 20) % 2 == 0) ? 1 : -1)
            let position = GeoPoint(
                latitude: 52.5 + distance / 111_320,
                longitude: 13.4 + east / (111_320 * 0.6088)
            )
            fixes.append(.init(time: startAt + Double(second), position: position, distance: distance))
        }
        return fixes
    }

    @Test func aStraightRunKeepsItsEndsAndWhereItStood() throws {
        let fixes = Self.run(seconds: 600, stopAt: 300, standing: 60)
        let route = try #require(RouteBuilder.route(fixes, startAt: 1_795_000_000))
        #expect(route.count <= 6, "a straight line and one stop need a handful of points, not \(route.count)")
        #expect(route.end.elapsed == 600)
        #expect(route.end.distance == fixes.last?.distance)
        // Where the runner stood is kept: the distance at the stop's middle is the stop's, within 3 m.
        #expect(abs(route.distance(at: 330) - 897) <= 3)
        for second in stride(from: 0, through: 600, by: 7) {
            #expect(abs(route.distance(at: Double(second)) - fixes[second].distance) <= 3.5, "at \(second) s")
        }
    }

    @Test func aWindingRunIsKeptToItsToleranceAndFitsTheRelaysLimitByGivingWay() throws {
        let fixes = Self.run(seconds: 3600, wiggle: 10)
        let route = try #require(RouteBuilder.route(fixes, startAt: 1_795_000_000))
        #expect(route.count > 300, "every corner of the zigzag is kept")
        let small = try #require(RouteBuilder.route(fixes, startAt: 1_795_000_000, maximumPoints: 100))
        #expect(small.count <= 100 && small.count >= 2)
        #expect(small.end.distance == route.end.distance, "the ends are kept whatever the tolerance")
    }

    @Test func timesBeforeTheStartCountFromItAndFixesOutOfOrderOrOffTheGlobeAreDropped() throws {
        var fixes = Self.run(seconds: 60, startAt: 1_795_000_000 - 2)
        fixes.insert(
            .init(time: fixes[10].time - 5, position: fixes[10].position, distance: fixes[10].distance),
            at: 11
        )
        fixes.insert(.init(time: fixes[20].time, position: GeoPoint(latitude: 95, longitude: 0), distance: 60), at: 21)
        let route = try #require(RouteBuilder.route(fixes, startAt: 1_795_000_000))
        #expect(route.points.first?.elapsed == 0)
        #expect(route.end.elapsed == 58)
        #expect(route.points.allSatisfy { $0.latitude < 53 })
        #expect(RouteBuilder.route(Array(fixes.prefix(1)), startAt: 0) == nil, "one fix is no route")
    }

    @Test func theLeadChangesWhereTheFasterRunnerPassesHeldAsTheWearableHoldsIt() throws {
        // Mine: 3 m/s throughout. The partner: 3.5 m/s for 300 s, then 2.5: they lead from about 10 s
        // after the gap passes 5 m (10 s in), and I take it back 10 s after they fall 5 m behind.
        let mine = try #require(RouteBuilder.route(Self.run(seconds: 900), startAt: 1_795_000_000))
        var partnerFixes = Self.run(seconds: 900, speed: 3.5)
        for index in partnerFixes.indices where index > 300 {
            partnerFixes[index].distance = 1050 + 2.5 * Double(index - 300)
        }
        let partner = try #require(RouteBuilder.route(partnerFixes, startAt: 1_795_000_000))
        let changes = RouteComparison(mine: mine, partner: partner).changes
        #expect(changes.map(\.leader) == [.partner, .mine])
        #expect(abs(changes[0].elapsed - 21) <= 2, "\(changes)")
        // The gap closes at 600 s (1800 m each) and passes 5 m behind at 610 s; held 10 s.
        #expect(abs(changes[1].elapsed - 621) <= 2, "\(changes)")
        #expect(abs(changes[1].distance - 1863) <= 6)
        #expect(RouteComparison(mine: mine, partner: mine).changes.isEmpty, "side by side: no change")
    }
}
