import Foundation
import Logging
import SyntheticReceivers
import Testing
import TrackCore

@testable import Replay

/// Golden replays of the recordings in data/: the accuracy goals, held by the test suite.
@Suite struct RecordingsTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var path: String
        var activity: Activity
        var distance: Double?
        var tolerance: Double?
        /// A simulated session (`gps`), held to 0.15 %; the real ones (`gps-real`) to 1 %.
        var simulated: Bool
        var testDescription: String { URL(fileURLWithPath: path).lastPathComponent }
    }

    static var cases: [Case] {
        ["gps", "gps-real"].flatMap { folder -> [Case] in
            let dir = "data/\(folder)"
            let names = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
            return names.filter { $0.hasSuffix(".truth.json") }.sorted().compactMap { name in
                guard let data = FileManager.default.contents(atPath: "\(dir)/\(name)"),
                    let truth = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
                else { return nil }
                return Case(
                    path: "\(dir)/\(name.dropLast(".truth.json".count)).jsonl",
                    activity: Activity(rawValue: truth["activity"] as? String ?? "") ?? .walking,
                    distance: truth["distance_m"] as? Double,
                    tolerance: truth["tolerance_m"] as? Double,
                    simulated: folder == "gps"
                )
            }
        }
    }

    @Test func theRecordingsAreThere() {
        #expect(Self.cases.count >= 15)
    }

    /// A recording drawn from a synthetic route says which route and draw (`route`, `seed`). Its
    /// fixes are that draw's (to the digits written: a platform's last bit in a sine may differ),
    /// its NMEA is the rendering of those very fixes, and its truth is the route's.
    @Test func aDrawnRecordingIsItsRoutesDraw() throws {
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        var drawn = 0
        for name in try FileManager.default.contentsOfDirectory(atPath: "data/gps") where name.hasSuffix(".truth.json")
        {
            let data = try #require(FileManager.default.contents(atPath: "data/gps/\(name)"))
            let truth = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            guard let routeName = truth["route"] as? String else { continue }
            let route = try #require(HonestRoute.named(routeName), "\(name): no route \(routeName)")
            let stem = String(name.dropLast(".truth.json".count))
            let recording = try RouteRecording(
                route: route,
                seed: UInt64(try #require(truth["seed"] as? Int)),
                name: stem
            )
            let logged = try FileReplayer(activity: route.activity, logger: logger).timedFixes(
                path: "data/gps/\(stem).jsonl"
            )
            .map { fix -> Fix in
                var logged = fix
                logged.receivedAt = nil
                return logged
            }
            #expect(logged.count == recording.fixes.count, "\(stem)")
            let apart = zip(logged, recording.fixes).filter { !Self.sameToTheDigitsWritten($0, $1) }
            #expect(apart.isEmpty, "\(stem): \(apart.count) fixes differ, the first \(String(describing: apart.first))")
            let nmea = try String(contentsOfFile: "data/gps/\(stem).nmea", encoding: .utf8)
                .split(separator: "\r\n", omittingEmptySubsequences: false)
            let rendered = logged.flatMap(FixText.sentences) + [""]
            let first = zip(nmea, rendered).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            #expect(
                nmea.count == rendered.count && first == nil,
                "\(stem).nmea: line \(first.map { $0 + 1 } ?? -1) differs"
            )
            #expect(truth["distance_m"] as? Double == recording.truth["distance_m"] as? Double, "\(stem)")
            #expect(truth["moving_s"] as? Double == recording.truth["moving_s"] as? Double, "\(stem)")
            drawn += 1
        }
        #expect(drawn == 2)
    }

    static func sameToTheDigitsWritten(_ a: Fix, _ b: Fix) -> Bool {
        func near(_ x: Double?, _ y: Double?, _ digits: Double) -> Bool {
            guard let x, let y else { return x == nil && y == nil }
            return abs(x - y) <= 1.01 * pow(10, -digits)
        }
        return a.mode == b.mode && a.time == b.time
            && near(a.position?.latitude, b.position?.latitude, 9)
            && near(a.position?.longitude, b.position?.longitude, 9)
            && near(a.errorEast, b.errorEast, 3) && near(a.errorNorth, b.errorNorth, 3)
            && near(a.horizontalError, b.horizontalError, 3) && near(a.speed, b.speed, 3) && near(a.track, b.track, 4)
            && near(a.speedError, b.speedError, 3)
    }

    @Test(arguments: cases)
    func replayMeetsTheGoal(_ c: Case) throws {
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        let report = try FileReplayer(activity: c.activity, logger: logger).replay(path: c.path)
        #expect(report.malformedLines == 0)
        guard let truth = c.distance else { return }  // robustness only: it must not crash
        if truth == 0 {
            #expect(report.summary.distance < 5)
        } else if let tolerance = c.tolerance {
            #expect(abs(report.summary.distance - truth) <= tolerance)
        } else {
            // Every simulated moving session within 0.15 %; a real receiver's truth is looser.
            let goal = c.simulated ? 0.0015 : 0.01
            #expect(abs(report.summary.distance - truth) / truth < goal, "\(report.summary.distance) m of \(truth) m")
        }
    }

    /// A boat whose receiver reports `speed: 0` while it moves: its Doppler is no measure of what a
    /// step covered (the core drops it), so only its total is held.
    static let dopplerBlind: Set<String> = ["bundg_zeus_9.jsonl"]

    /// No step credits more than the receiver's own speed over the time it covers, plus
    /// `StepCredits.slack`: a resume from standing pays nothing for the stop's drift.
    @Test(arguments: cases)
    func noStepCreditsMoreThanItsDoppler(_ c: Case) throws {
        guard !Self.dopplerBlind.contains(c.testDescription) else { return }
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        var credits = StepCredits(slack: StepCredits.slack)
        _ = try FileReplayer(activity: c.activity, logger: logger).replay(path: c.path) { fix, outcome, session in
            credits.observe(fix, outcome, distance: session.distance)
        }
        let over = credits.over.map { "\($0.credited) m against \($0.doppler) m at \($0.time)" }
        #expect(over.isEmpty, "\(over)")
    }
}
